#include "slow_token_model.h"

#include "analysis/heatmap/batch_label.h"
#include "analysis/kernel_name.h"

namespace tokenscope::ui {

SlowTokenModel::SlowTokenModel(QObject* parent) : UnitTableModel(ColumnCount, Itl, Itl, parent) {}

QVariant SlowTokenModel::text(const analysis::SlowToken& t, int column) const {
    switch (column) {
        case Request:
            return QString::number(t.request);
        case Token:
            return t.index;
        case Itl:
            return t.index == 0 && t.itl_ns == 0 ? tr("first")
                                                 : plots::TimeFormat::duration(t.itl_ns, unit());
        case Iteration:
            return t.iteration_step >= 0 ? QVariant(t.iteration) : QVariant(tr("none"));
        case Batch:
            return QString::fromStdString(analysis::describe_batch(t.batch));
        case Dominant:
            if (!t.has_window()) return {};
            return QStringLiteral("%1% %2")
                .arg(100.0 * t.dominant_share(), 0, 'f', 0)
                .arg(QString::fromUtf8(analysis::to_string(t.dominant()).data()));
        case Kernels: {
            QStringList names;
            for (const auto& k : t.kernels)
                names << QString::fromStdString(analysis::short_kernel_name(k.name));
            return names.join(QStringLiteral(", "));
        }
    }
    return {};
}

QVariant SlowTokenModel::data(const QModelIndex& index, int role) const {
    const analysis::SlowToken* row = rowAt(index);
    if (!row) return {};
    const auto& t = *row;
    if (role == StepRole) return static_cast<qulonglong>(t.step);
    if (role == Qt::ToolTipRole) return QString::fromStdString(analysis::describe_slow_token(t));
    if (role == Qt::DisplayRole) return text(t, index.column());
    return {};
}

QVariant SlowTokenModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* kNames[] = {"Request", "Token",       "ITL",        "Iteration",
                                   "Batch",   "Attribution", "Top kernels"};
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

}  // namespace tokenscope::ui
