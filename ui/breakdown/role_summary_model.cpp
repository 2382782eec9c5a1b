#include "role_summary_model.h"

#include <cmath>

namespace tokenscope::ui {

// The table's shape changes with the run (its phases), so columnCount is computed here;
// the base class is told the widest shape it may repaint on a unit change.
RoleSummaryModel::RoleSummaryModel(QObject* parent) : UnitTableModel(4, 1, 2, parent) {}

void RoleSummaryModel::setBreakdown(const analysis::RoleBreakdown& roles) {
    std::vector<RoleSummaryRow> rows;
    std::vector<trace::Phase> phases;
    for (const auto& p : roles.phases) phases.push_back(p.phase);
    const auto total = static_cast<double>(roles.run.total());
    for (analysis::KernelRole r : analysis::kKernelRoles) {
        const std::int64_t run_ns = roles.run[r];
        if (run_ns == 0) continue;  // a role the run never used says nothing
        RoleSummaryRow row{r, {}, run_ns, total > 0 ? static_cast<double>(run_ns) / total : 0.0};
        for (const auto& p : roles.phases)
            row.phase_mean_ns.push_back(p.mean_ns[static_cast<std::size_t>(r)]);
        rows.push_back(std::move(row));
    }
    beginResetModel();
    phases_ = std::move(phases);
    endResetModel();
    setRows(std::move(rows));
}

void RoleSummaryModel::setTimeUnit(plots::TimeUnit unit) {
    setUnit(unit);
    if (rowCount() > 0) emit dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 2));
}

int RoleSummaryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(phases_.size()) + 3;
}

QVariant RoleSummaryModel::value(const RoleSummaryRow& row, int column) const {
    const int phases = static_cast<int>(phases_.size());
    if (column == 0) return QString::fromUtf8(analysis::display_name(row.role).data());
    if (column <= phases) return row.phase_mean_ns[static_cast<std::size_t>(column - 1)];
    if (column == phases + 1) return static_cast<double>(row.run_ns);
    return row.share;
}

QVariant RoleSummaryModel::data(const QModelIndex& index, int role) const {
    const RoleSummaryRow* row = rowAt(index);
    if (!row || index.column() >= columnCount()) return {};
    const int column = index.column();
    if (role == SortRole) return value(*row, column);
    if (role == Qt::TextAlignmentRole)
        return column == 0 ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole) return {};
    if (column == 0) return value(*row, column);
    if (column == columnCount() - 1) return plots::TimeFormat::share(row->share);
    return plots::TimeFormat::duration(std::llround(value(*row, column).toDouble()), unit());
}

QVariant RoleSummaryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= columnCount())
        return {};
    const int phases = static_cast<int>(phases_.size());
    if (section == 0) return tr("Kernel role");
    if (section <= phases)
        return tr("%1 per step")
            .arg(QString::fromUtf8(trace::to_string(phases_[section - 1]).data()));
    if (section == phases + 1) return tr("Run total");
    return tr("Share");
}

}  // namespace tokenscope::ui
