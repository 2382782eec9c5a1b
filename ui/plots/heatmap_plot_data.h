#pragma once

#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/heatmap/heatmap.h"
#include "analysis/heatmap/heatmap_diff.h"
#include "time_format.h"

namespace tokenscope::ui::plots {

// What a HeatmapPlot draws: a P95 matrix or a B - A delta, with everything the
// plot needs to label it. Values stay in ns; the plot converts to the unit.
struct HeatmapPlotData {
    QString title;
    QString metric;      // "step latency", "kernel duration", ...
    bool delta = false;  // diverging colour scale over [-range, +range]
    QStringList row_labels;
    std::vector<analysis::HeatmapWindow> columns;  // window times; may be fewer than column_count
    // Where a column's work starts, when before its window: a window of steps holds the
    // steps that end in it, and its first step began earlier (the first window's prefill
    // began at the run's start, not at its end). Empty: the windows' starts.
    std::vector<std::int64_t> column_starts;
    std::size_t column_count = 0;
    std::int64_t origin_ns = 0;                 // column labels are times from here
    std::vector<std::optional<double>> values;  // ns, row-major; nullopt = blank cell
    std::vector<std::int64_t> counts;           // samples per cell; empty for deltas
    std::vector<std::optional<double>> row_sla;
    std::vector<std::optional<std::size_t>> row_flag;
    std::size_t sla_baseline = 0;  // the first N columns calibrate row_sla; 0 = none drawn
    // Relative bound of each value (analysis::Heatmap::value_error): 0 when exact.
    double value_error = 0;
    std::optional<double> lo, hi;  // colour range in ns; unset = no non-blank cell
    // Where set, the column ticks (the fleet view's clock times) instead of times from
    // origin_ns, under the axis title column_axis; value_name names the cell value on
    // the colour scale (the fleet's chosen quantile).
    QStringList column_labels;
    QString column_axis;
    QString value_name = QStringLiteral("P95");

    std::size_t row_count() const { return static_cast<std::size_t>(row_labels.size()); }
    const std::optional<double>& value(std::size_t row, std::size_t column) const {
        return values[row * column_count + column];
    }
    // A cell above its row's SLA (docs/heatmap.md, SLA baseline and recalibration).
    bool breaches(std::size_t row, std::size_t column) const;
    // Column c's start (column_starts, else its window's); c < columns.size().
    std::int64_t column_start(std::size_t c) const {
        return c < column_starts.size() ? column_starts[c] : columns[c].start_ns;
    }

    // origin_ns defaults to the first window's start. With the run, windows of steps are
    // labelled where their steps start (column_starts).
    static HeatmapPlotData fromHeatmap(const analysis::Heatmap& map,
                                       std::optional<std::int64_t> origin_ns = std::nullopt,
                                       const trace::RunData* run = nullptr);
    // Columns are labelled by `times` (the run with more windows) where given.
    static HeatmapPlotData fromDiff(const analysis::HeatmapDiff& diff,
                                    const std::vector<analysis::HeatmapWindow>& times,
                                    std::int64_t origin_ns, const QString& metric);
    static QString metricLabel(analysis::HeatmapMetric metric);
};

}  // namespace tokenscope::ui::plots
