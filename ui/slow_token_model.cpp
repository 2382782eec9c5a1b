#include "slow_token_model.h"

#include "analysis/batch_label.h"
#include "analysis/kernel_name.h"

namespace tokenscope::ui {

SlowTokenModel::SlowTokenModel(QObject* parent) : QAbstractTableModel(parent) {}

void SlowTokenModel::setTokens(std::vector<analysis::SlowToken> tokens) {
    beginResetModel();
    tokens_ = std::move(tokens);
    endResetModel();
}

void SlowTokenModel::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    if (!tokens_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int SlowTokenModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(tokens_.size());
}

int SlowTokenModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SlowTokenModel::text(const analysis::SlowToken& t, int column) const {
    switch (column) {
        case Request:
            return QString::number(t.request);
        case Token:
            return t.index;
        case Itl:
            return t.index == 0 && t.itl_ns == 0 ? tr("first")
                                                 : plots::TimeFormat::duration(t.itl_ns, unit_);
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
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const auto& t = tokens_[static_cast<std::size_t>(index.row())];
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
