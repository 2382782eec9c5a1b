#include "iteration_delta_model.h"

#include <QColor>
#include <cmath>

namespace tokenscope::ui {

IterationDeltaModel::IterationDeltaModel(QObject* parent) : QAbstractTableModel(parent) {}

void IterationDeltaModel::setIterations(const analysis::IterationDiff& iterations) {
    beginResetModel();
    rows_.clear();
    for (const auto& d : iterations.phases) addPhase(d);
    endResetModel();
}

void IterationDeltaModel::addPhase(const analysis::PhaseIterationDiff& d) {
    const QString phase = d.phase == trace::Phase::Prefill ? tr("prefill") : tr("decode");
    const auto na = static_cast<double>(d.a.steps.size());
    const auto nb = static_cast<double>(d.b.steps.size());
    rows_.push_back(
        {phase, tr("iterations (%1 aligned)").arg(d.pairs.size()), na, nb, nb - na, true});
    if (d.a.steps.empty() || d.b.steps.empty()) return;  // one side: nothing to compare
    rows_.push_back({phase, tr("iteration P50"), d.a.duration.p50, d.b.duration.p50, d.p50_delta_ns,
                     false, true, d.test.p_value, d.significant});
    rows_.push_back(
        {phase, tr("iteration P95"), d.a.duration.p95, d.b.duration.p95, d.p95_delta_ns});
    rows_.push_back(
        {phase, tr("iteration mean"), d.a.duration.mean, d.b.duration.mean, d.mean_delta_ns});
    for (const auto& p : d.parts)
        if (p.a_ns != 0 || p.b_ns != 0)
            rows_.push_back({phase,
                             tr("%1 (mean)").arg(QString::fromStdString(analysis::part_name(p))),
                             p.a_ns, p.b_ns, p.delta_ns});
    rows_.push_back({phase, tr("P50 \u2212 mean"), d.a.duration.p50 - d.a.duration.mean,
                     d.b.duration.p50 - d.b.duration.mean, d.rest_ns});
}

void IterationDeltaModel::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    if (!rows_.empty()) emit dataChanged(index(0, A), index(rowCount() - 1, Delta));
}

int IterationDeltaModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int IterationDeltaModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IterationDeltaModel::number(const Row& row, int column) const {
    switch (column) {
        case Phase:
            return row.phase;
        case Quantity:
            return row.quantity;
        case A:
            return row.a;
        case B:
            return row.b;
        case Delta:
            return row.delta;
        case PValue:
            return row.tested ? QVariant(row.p_value) : QVariant();
        default:
            return row.tested ? QVariant(row.significant) : QVariant();
    }
}

QString IterationDeltaModel::text(const Row& row, int column) const {
    const QString sign = row.delta > 0 ? QStringLiteral("+") : QString();
    switch (column) {
        case Phase:
        case Quantity:
            return number(row, column).toString();
        case A:
        case B:
        case Delta: {
            const double v = number(row, column).toDouble();
            const QString s = column == Delta ? sign : QString();
            if (row.count) return s + QString::number(std::llround(v));
            return s + plots::TimeFormat::duration(std::llround(v), unit_);
        }
        case PValue:
            if (!row.tested) return {};
            return std::isnan(row.p_value) ? QStringLiteral("\u2014")
                                           : QString::number(row.p_value, 'g', 3);
        default:
            if (!row.tested) return {};
            return row.significant ? tr("yes (p < 0.01)") : tr("no");
    }
}

QVariant IterationDeltaModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return text(row, index.column());
        case SortRole:
            return number(row, index.column());
        case Qt::TextAlignmentRole:
            return index.column() >= A ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case Qt::ForegroundRole:
            // Slower (positive delta) in vermillion, faster in blue, as the metric table.
            if (row.tested && row.significant && index.column() == Delta && row.delta != 0)
                return row.delta > 0 ? QColor(0xD5, 0x5E, 0x00) : QColor(0x00, 0x72, 0xB2);
            return {};
        default:
            return {};
    }
}

QVariant IterationDeltaModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {
        "Phase",      "Iterations", "A", "B", "\u0394 (B \u2212 A)", "p (Mann\u2013Whitney)",
        "Significant"};
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

}  // namespace tokenscope::ui
