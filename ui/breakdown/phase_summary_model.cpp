#include "phase_summary_model.h"

#include <cmath>

#include "ui/plots/category_colors.h"

namespace tokenscope::ui {

PhaseSummaryModel::PhaseSummaryModel(QObject* parent)
    : UnitTableModel(ColumnCount, Mean, ColumnCount - 1, parent) {}

QVariant PhaseSummaryModel::value(const analysis::PhaseSummary& p, int column) const {
    switch (column) {
        case Phase:
            return QString::fromUtf8(trace::to_string(p.phase).data());
        case Steps:
            return static_cast<qlonglong>(p.count);
        case Mean:
            return p.mean_ns;
        default:
            return p.mean_category_ns[static_cast<std::size_t>(column - FirstCategory)];
    }
}

QVariant PhaseSummaryModel::data(const QModelIndex& index, int role) const {
    const analysis::PhaseSummary* row = rowAt(index);
    if (!row) return {};
    const auto& p = *row;
    const int column = index.column();
    if (role == SortRole) return value(p, column);
    if (role == Qt::TextAlignmentRole)
        return column == Phase ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    if (column <= Steps) return value(p, column).toString();
    return plots::TimeFormat::duration(std::llround(value(p, column).toDouble()), unit());
}

QVariant PhaseSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    if (section >= FirstCategory && role == Qt::DecorationRole)
        return plots::CategoryColors::color(
            analysis::kCategories[static_cast<std::size_t>(section - FirstCategory)]);
    if (role != Qt::DisplayRole) return {};
    switch (section) {
        case Phase:
            return tr("Phase");
        case Steps:
            return tr("Steps");
        case Mean:
            return tr("Mean step");
        default:
            return plots::CategoryColors::label(
                analysis::kCategories[static_cast<std::size_t>(section - FirstCategory)]);
    }
}

}  // namespace tokenscope::ui
