#pragma once

#include <QAbstractTableModel>
#include <array>
#include <vector>

#include "analysis/compare/diff.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// The metric deltas of analysis::diff_runs: one row per metric and statistic
// (mean, P50, P90, P95, P99) with A, B, delta, delta %, the Mann-Whitney p-value of
// the metric's samples and its significance. Metrics without samples in either
// run are left out. SortRole gives numbers.
class MetricDeltaModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    static constexpr int SortRole = Qt::UserRole + 1;
    enum Column { Metric, Statistic, A, B, Delta, DeltaPct, PValue, Significant, ColumnCount };

    explicit MetricDeltaModel(QObject* parent = nullptr);
    void setMetrics(const std::array<analysis::MetricDiff, 5>& metrics);
    void setUnit(plots::TimeUnit unit);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        QString metric;
        QString statistic;
        analysis::StatDelta stat;
        double p_value = 0;
        bool significant = false;
    };
    QVariant number(const Row& row, int column) const;
    QString text(const Row& row, int column) const;

    std::vector<Row> rows_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
};

}  // namespace tokenscope::ui
