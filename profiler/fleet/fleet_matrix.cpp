#include "fleet_matrix.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "histogram_quantile.h"
#include "sample_value.h"

namespace tokenscope::fleet {
namespace {

// A bucket bound as exporters write it: "0.5", "1e-3", "+Inf".
std::optional<double> parse_le(const std::string& text) {
    return parse_sample_value(text);
}

std::optional<std::size_t> window_index(const std::vector<std::int64_t>& ends, double t) {
    const auto rounded = static_cast<std::int64_t>(std::llround(t));
    if (std::fabs(t - static_cast<double>(rounded)) > 1e-3) return std::nullopt;
    auto it = std::lower_bound(ends.begin(), ends.end(), rounded);
    if (it == ends.end() || *it != rounded) return std::nullopt;
    return static_cast<std::size_t>(it - ends.begin());
}

using RowBuckets = std::vector<std::vector<Bucket>>;  // per window

std::map<std::string, RowBuckets> group_buckets(const QueryResult& result, const FleetSpec& spec,
                                                const std::vector<std::int64_t>& ends) {
    std::map<std::string, RowBuckets> rows;
    for (const auto& s : result.series) {
        const std::string* le_text = s.label("le");
        if (!le_text) continue;
        const auto le = parse_le(*le_text);
        if (!le || std::isnan(*le)) continue;
        const std::string* row = s.label(spec.by);
        auto& windows = rows[row ? *row : std::string()];
        windows.resize(ends.size());
        for (const auto& p : s.points) {
            // NaN: a stale or undefined point; a negative count is no observation count.
            if (std::isnan(p.v) || p.v < 0) continue;
            if (auto c = window_index(ends, p.t)) windows[*c].push_back({*le, p.v});
        }
    }
    return rows;
}

}  // namespace

std::int64_t FleetMatrix::window_width_s(std::size_t column) const {
    if (!snapshot) return spec.window_s;
    const auto& c = map.columns[column];
    return (c.end_ns - c.start_ns) / static_cast<std::int64_t>(kNsPerSecond);
}

FleetMatrix build_fleet_matrix(const QueryResult& bucket_increases, const FleetSpec& spec,
                               const std::vector<std::int64_t>& window_end_s) {
    FleetMatrix m;
    m.spec = spec;
    m.window_end_s = window_end_s;
    auto rows = group_buckets(bucket_increases, spec, window_end_s);
    const std::size_t cols = window_end_s.size();
    auto& map = m.map;
    map.spec.window = analysis::WindowKind::Time;
    map.spec.window_size = spec.window_s * static_cast<std::int64_t>(kNsPerSecond);
    map.spec.metric = spec.metric_key == "ttft"  ? analysis::HeatmapMetric::Ttft
                      : spec.metric_key == "itl" ? analysis::HeatmapMetric::Itl
                                                 : analysis::HeatmapMetric::StepLatency;
    // The heatmap's baseline rule, resolved here so the spec the fleet reports names it.
    map.spec.sla_windows = spec.sla_windows;
    map.spec.sla_windows = analysis::sla_baseline_windows(map.spec, cols);
    for (std::int64_t end : window_end_s)
        map.columns.push_back({(end - spec.window_s) * static_cast<std::int64_t>(kNsPerSecond),
                               end * static_cast<std::int64_t>(kNsPerSecond)});
    for (auto& [label, windows] : rows) {
        map.row_labels.push_back(label);
        for (std::size_t c = 0; c < cols; ++c) {
            analysis::HeatmapCell cell;
            double total = 0;
            for (const auto& b : windows[c])
                if (std::isinf(b.le) && b.le > 0) total += b.count;
            const double q = histogram_quantile(spec.quantile, std::move(windows[c]));
            if (total > 0 && std::isfinite(q)) {
                cell.value = q * kNsPerSecond;
                cell.count = std::llround(total);
            } else {
                total = 0;
            }
            map.cells.push_back(cell);
            m.observations.push_back(total);
        }
    }
    analysis::finish_heatmap(map);
    for (std::size_t r = 0; r < map.row_count(); ++r) {
        std::vector<std::optional<double>> row(cols);
        for (std::size_t c = 0; c < cols; ++c) row[c] = map.at(r, c).value;
        m.calibration.push_back(calibrate_row(row, window_end_s, map.row_sla[r]));
    }
    return m;
}

}  // namespace tokenscope::fleet
