#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/heatmap/heatmap.h"
#include "calibration.h"
#include "fleet_spec.h"
#include "query_result.h"

namespace tokenscope::fleet {

// Prometheus speaks seconds; the matrix, like every Tokenscope time, holds ns.
inline constexpr double kNsPerSecond = 1e9;

// Where a matrix comes from /metrics scrapes (docs/fleet.md, Snapshots): its windows
// lie between the scrapes, or, from one scrape, reach back to the server's start.
struct SnapshotInfo {
    struct Taken {
        std::int64_t at_s = 0;
        std::string where;        // FILE or FILE:LINE of its `# scraped at`
        std::string time_source;  // "# scraped at", "--at" or "file time"
    };
    std::vector<Taken> scrapes;  // oldest first
    // One scrape: the single window holds everything since the server (the
    // histogram's series) started, at start_s where the scrape tells it
    // (<name>_created or process_start_time_seconds).
    bool since_start = false;
    std::optional<std::int64_t> start_s;
    std::vector<std::string> diagnostics;  // counter resets, "FILE:LINE: ..."
};

// The fleet matrix of docs/fleet.md in the heatmap model of docs/heatmap.md, so the
// heatmap's CSV, plot and image code draw it: rows = values of spec.by (sorted; a
// series without the label is the row ""), columns = the windows, cell = the
// spec.quantile of the window's bucket counts in ns (HeatmapCell::value holds the
// chosen quantile, whatever q is) and count = its observations, rounded. A window
// without observations is blank. row_sla and row_flag follow section 6 with the
// baseline spec.sla_windows (0 = the first half).
struct FleetMatrix {
    FleetSpec spec;
    std::vector<std::int64_t> window_end_s;
    analysis::Heatmap map;
    std::vector<double> observations;         // row-major like map.cells; 0 for a blank cell
    std::vector<RowCalibration> calibration;  // per row, thresholds in ns
    std::optional<SnapshotInfo> snapshot;     // set for a matrix from /metrics scrapes

    double observations_at(std::size_t row, std::size_t column) const {
        return observations[row * window_end_s.size() + column];
    }
    // A window's width in seconds: spec.window_s, or for scrapes the time between
    // them (0 for the window since a server start that the scrape does not tell).
    std::int64_t window_width_s(std::size_t column) const;
    // Where a window starts: its end less its width.
    std::int64_t window_start_s(std::size_t column) const {
        return window_end_s[column] - window_width_s(column);
    }
};

// From per-window bucket counts: the answer to bucket_increase_query(spec) evaluated
// at the window ends (series labelled le and spec.by, one point per window end).
// Points at other times, NaN or negative counts and series without le are ignored
// (PromQL ignores the last as well).
FleetMatrix build_fleet_matrix(const QueryResult& bucket_increases, const FleetSpec& spec,
                               const std::vector<std::int64_t>& window_end_s);

}  // namespace tokenscope::fleet
