#include "metric_delta_model.h"

#include <QColor>
#include <QFont>
#include <cmath>

namespace tokenscope::ui {

MetricDeltaModel::MetricDeltaModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetricDeltaModel::setMetrics(const std::array<analysis::MetricDiff, 5>& metrics) {
    beginResetModel();
    rows_.clear();
    for (const auto& m : metrics) {
        if (m.a.count == 0 && m.b.count == 0) continue;
        const std::pair<const char*, const analysis::StatDelta*> stats[] = {
            {"mean", &m.mean}, {"P50", &m.p50}, {"P90", &m.p90}, {"P95", &m.p95}, {"P99", &m.p99}};
        for (const auto& [name, stat] : stats)
            rows_.push_back(Row{QString::fromUtf8(m.name.data(), static_cast<int>(m.name.size())),
                                QString::fromLatin1(name), *stat, m.test.p_value, m.significant});
    }
    endResetModel();
}

void MetricDeltaModel::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    if (!rows_.empty()) emit dataChanged(index(0, A), index(rowCount() - 1, Delta));
}

int MetricDeltaModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int MetricDeltaModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MetricDeltaModel::number(const Row& row, int column) const {
    switch (column) {
        case Metric:
            return row.metric;
        case Statistic:
            return row.statistic;
        case A:
            return row.stat.a;
        case B:
            return row.stat.b;
        case Delta:
            return row.stat.delta;
        case DeltaPct:
            return row.stat.delta_pct ? QVariant(*row.stat.delta_pct) : QVariant();
        case PValue:
            return row.p_value;
        default:
            return row.significant;
    }
}

QString MetricDeltaModel::text(const Row& row, int column) const {
    switch (column) {
        case Metric:
        case Statistic:
            return number(row, column).toString();
        case A:
        case B:
            return plots::TimeFormat::duration(std::llround(number(row, column).toDouble()), unit_);
        case Delta:
            return (row.stat.delta > 0 ? QStringLiteral("+") : QString()) +
                   plots::TimeFormat::duration(std::llround(row.stat.delta), unit_);
        case DeltaPct:
            return row.stat.delta_pct
                       ? QStringLiteral("%1%2 %")
                             .arg(*row.stat.delta_pct > 0 ? QStringLiteral("+") : QString())
                             .arg(*row.stat.delta_pct, 0, 'f', 1)
                       : QStringLiteral("\u2014");
        case PValue:
            return std::isnan(row.p_value) ? QStringLiteral("\u2014")
                                           : QString::number(row.p_value, 'g', 3);
        default:
            return row.significant ? tr("yes (p < 0.01)") : tr("no");
    }
}

QVariant MetricDeltaModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& row = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return text(row, index.column());
        case SortRole:
            return number(row, index.column());
        case Qt::TextAlignmentRole:
            return index.column() >= A ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
        case Qt::FontRole:
            if (row.significant && index.column() == Significant) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::ForegroundRole:
            // Slower (positive delta) in vermillion, faster in blue, when significant.
            if (row.significant && (index.column() == Delta || index.column() == DeltaPct) &&
                row.stat.delta != 0)
                return row.stat.delta > 0 ? QColor(0xD5, 0x5E, 0x00) : QColor(0x00, 0x72, 0xB2);
            return {};
        default:
            return {};
    }
}

QVariant MetricDeltaModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const kNames[] = {"Metric",
                                         "Statistic",
                                         "A",
                                         "B",
                                         "\u0394 (B \u2212 A)",
                                         "\u0394 %",
                                         "p (Mann\u2013Whitney)",
                                         "Significant"};
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

}  // namespace tokenscope::ui
