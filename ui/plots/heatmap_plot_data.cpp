#include "heatmap_plot_data.h"

#include <algorithm>
#include <cmath>

namespace tokenscope::ui::plots {

bool HeatmapPlotData::breaches(std::size_t row, std::size_t column) const {
    if (row >= row_sla.size() || !row_sla[row]) return false;
    const auto& v = value(row, column);
    return v && *v > *row_sla[row];
}

QString HeatmapPlotData::metricLabel(analysis::HeatmapMetric metric) {
    switch (metric) {
        case analysis::HeatmapMetric::StepLatency:
            return QStringLiteral("step latency");
        case analysis::HeatmapMetric::Itl:
            return QStringLiteral("ITL");
        case analysis::HeatmapMetric::Ttft:
            return QStringLiteral("TTFT");
        case analysis::HeatmapMetric::KernelDuration:
            return QStringLiteral("kernel duration");
    }
    return {};
}

HeatmapPlotData HeatmapPlotData::fromHeatmap(const analysis::Heatmap& map,
                                             std::optional<std::int64_t> origin_ns,
                                             const trace::RunData* run) {
    HeatmapPlotData d;
    d.metric = metricLabel(map.spec.metric);
    for (const auto& label : map.row_labels) d.row_labels << QString::fromStdString(label);
    d.columns = map.columns;
    d.column_count = map.column_count();
    d.origin_ns = origin_ns.value_or(map.columns.empty() ? 0 : map.columns.front().start_ns);
    d.values.reserve(map.cells.size());
    d.counts.reserve(map.cells.size());
    for (const auto& cell : map.cells) {
        d.values.push_back(cell.value);
        d.counts.push_back(cell.count);
    }
    d.row_sla = map.row_sla;
    d.row_flag = map.row_flag;
    d.sla_baseline = map.sla_baseline;
    d.value_error = map.value_error;
    d.lo = map.min_value;
    d.hi = map.max_value;
    if (run != nullptr && map.spec.window == analysis::WindowKind::Steps && !d.columns.empty()) {
        // A step belongs to the window its end falls in (its sample's time).
        for (const auto& w : d.columns) d.column_starts.push_back(w.start_ns);
        for (const auto& s : run->steps) {
            const auto it = std::upper_bound(
                d.columns.begin(), d.columns.end(), s.end_ns,
                [](std::int64_t t, const analysis::HeatmapWindow& w) { return t < w.start_ns; });
            if (it == d.columns.begin()) continue;
            const auto c = static_cast<std::size_t>(it - d.columns.begin()) - 1;
            if (s.end_ns < d.columns[c].end_ns)
                d.column_starts[c] = std::min(d.column_starts[c], s.start_ns);
        }
    }
    return d;
}

HeatmapPlotData HeatmapPlotData::fromDiff(const analysis::HeatmapDiff& diff,
                                          const std::vector<analysis::HeatmapWindow>& times,
                                          std::int64_t origin_ns, const QString& metric) {
    HeatmapPlotData d;
    d.delta = true;
    d.metric = metric;
    for (const auto& label : diff.row_labels) d.row_labels << QString::fromStdString(label);
    d.column_count = diff.columns;
    d.columns.assign(times.begin(), times.begin() + std::min(times.size(), diff.columns));
    d.origin_ns = origin_ns;
    d.values = diff.delta;
    const bool any =
        std::any_of(d.values.begin(), d.values.end(), [](const auto& v) { return v.has_value(); });
    if (any) {
        // A flat zero delta still needs a non-empty range for the scale.
        const double range = diff.range > 0 ? diff.range : 1.0;
        d.lo = -range;
        d.hi = range;
    }
    return d;
}

}  // namespace tokenscope::ui::plots
