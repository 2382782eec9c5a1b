#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// Row grouping key (docs/heatmap.md, Rows, columns and cells). Row order:
//   Kernel   - top-N kernel names by total time, descending (ties by name);
//   Request  - by request id ascending;
//   Phase    - prefill, decode, iteration (only phases with samples);
//   Position - token-position buckets ascending;
//   Lane     - by lane index;
//   Concurrency - requests in flight at the sample's time, power-of-two buckets
//                 (0, 1, 2, 3-4, 5-8, ...), ascending: latency against load;
//   Batch    - an engine iteration's batch composition (batch_label.h: "decode 32
//              req", "prefill 1 req", "mixed"): which iteration shapes are slow.
//   Rank     - the kernel's lane's rank ("rank 0", ...; "no rank" first) in a run of
//              several ranks: which rank's kernels are slow.
//   Role     - the kernel's role (kernel_role.h: GEMM, attention, communication, ...), in
//              role order: runs whose kernel names differ (two engines, two GPUs) compare.
// Kernel, Lane, Rank and Role rows need metric KernelDuration; the others a step metric.
enum class HeatmapRows : std::uint8_t {
    Kernel,
    Request,
    Phase,
    Position,
    Lane,
    Concurrency,
    Batch,
    Rank,
    Role
};

// Sample value and the time that places it in a column:
//   StepLatency    - step duration, at the step's end (emission);
//   Itl            - emission gap of consecutive tokens of one request, at the later emission;
//   Ttft           - first_token - arrival per request, at the first token (phase prefill,
//                    position 0);
//   KernelDuration - kernel duration, at the kernel's start.
enum class HeatmapMetric : std::uint8_t { StepLatency, Itl, Ttft, KernelDuration };

// Time: columns of window_size ns from the origin. Steps: a column boundary at the
// emission time of every window_size-th step (steps ordered by emission); steps
// emitted at the same instant share a column, so a column may hold more than N.
enum class WindowKind : std::uint8_t { Time, Steps };

struct HeatmapSpec {
    HeatmapRows rows = HeatmapRows::Phase;
    HeatmapMetric metric = HeatmapMetric::StepLatency;
    WindowKind window = WindowKind::Time;
    std::int64_t window_size = 100'000'000;  // ns (Time) or steps (Steps)
    std::size_t top_n = 20;                  // Kernel rows
    // Position rows: buckets [0, w), [w, 2w), ...; with first_token_alone,
    // position 0 is its own row: 0, 1..w-1, w..2w-1, ...
    std::int32_t bucket_width = 16;
    bool first_token_alone = true;
    // Baseline windows the SLA is calibrated on: 0 = the first half (at least
    // one), N = the first N. Only windows after the baseline are flagged.
    std::size_t sla_windows = 0;
    // Warm-up exclusion, as metrics.h: step and ITL samples skip the first `warmup`
    // steps of each request (by token index; the first W iterations of iteration runs),
    // TTFT skips the first `warmup` requests by arrival, and kernel durations skip
    // kernels that start before the W-th step emission of the run.
    std::size_t warmup = 0;
    std::optional<std::int64_t> origin_ns;  // Time windows: default = run start

    // Equal specs give equal heatmaps of one run: the GUI computes each once.
    bool operator==(const HeatmapSpec&) const = default;
};

struct HeatmapCell {
    // The quantile of the cell's samples, ns: P95 in a run's heatmap, the quantile the
    // fleet asks for (0.5 to 0.999) in a fleet matrix. Empty cell: nullopt (blank, never 0).
    std::optional<double> value;
    std::int64_t count = 0;
};

struct HeatmapWindow {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;  // exclusive
};

struct Heatmap {
    HeatmapSpec spec;
    std::vector<std::string> row_labels;
    std::vector<HeatmapWindow> columns;
    std::vector<HeatmapCell> cells;              // row-major: cells[row * columns.size() + column]
    std::vector<std::optional<double>> row_sla;  // 1.2 x the row's peak baseline P95
    // First column of the first run of 3 consecutive cells after the baseline
    // above 0.9 x SLA; an empty cell breaks a run.
    std::vector<std::optional<std::size_t>> row_flag;
    std::size_t sla_baseline = 0;                // the first sla_baseline columns calibrate row_sla
    std::optional<double> min_value, max_value;  // over non-empty cells
    // Relative bound of every cell's value: 0 when exact; a run's kernel durations read from
    // its file go into a histogram per cell (store::DurationHistogram, "±0.8%").
    double value_error = 0;

    std::size_t row_count() const { return row_labels.size(); }
    std::size_t column_count() const { return columns.size(); }
    const HeatmapCell& at(std::size_t row, std::size_t column) const {
        return cells[row * columns.size() + column];
    }
};

inline constexpr double kSlaFactor = 1.2;
inline constexpr double kRecalibrationFraction = 0.9;
inline constexpr std::size_t kRecalibrationRun = 3;
inline constexpr std::size_t kMaxHeatmapColumns = 100'000;

// Throws std::invalid_argument for a rows/metric pair that does not fit, a
// window_size or bucket_width <= 0, or more than kMaxHeatmapColumns columns.
// Throws trace::Cancelled once `stop` is requested (checked every few thousand samples).
Heatmap compute_heatmap(const trace::RunData& run, const HeatmapSpec& spec,
                        const trace::StopToken& stop = {});

// Hands every activity of a run to the callback, one pass per call.
using ActivityVisit = std::function<void(const std::function<void(const trace::Activity&)>& each)>;
// compute_heatmap with the activities handed over by `visit` (a run whose activities stayed
// in its file: stored_heatmap.h). A kernel-duration heatmap then takes two passes and keeps
// one duration histogram per cell instead of every duration, so each cell's P95 is within
// value_error (store::DurationHistogram::kRelativeError) of the exact one; counts are exact.
Heatmap compute_heatmap(const trace::RunData& run, const HeatmapSpec& spec,
                        const ActivityVisit& visit, const trace::StopToken& stop = {});
// compute_heatmap calls in this process so far: lets a test check that the GUI computes
// each (run, spec) heatmap once however many views show it.
std::uint64_t heatmap_builds();

// Request rows are labelled "req ID"; the parse gives ID back (nullopt for any other
// label), so a click on a row finds its request.
std::string request_row_label(std::int64_t request);
std::optional<std::int64_t> request_of_row_label(std::string_view label);

// Fills row_sla, row_flag, sla_baseline, min_value and max_value from cells (used by
// compute_heatmap).
void finish_heatmap(Heatmap& map);
// How many leading windows calibrate the SLA (HeatmapSpec::sla_windows).
std::size_t sla_baseline_windows(const HeatmapSpec& spec, std::size_t columns);
// Sets row_flag[r]: the first run of kRecalibrationRun windows at or after
// `baseline` whose P95 is above kRecalibrationFraction x sla.
void flag_recalibration(Heatmap& map, std::size_t r, std::size_t baseline, double sla);
// Compare: each row of b that a also has takes a's SLA and is flagged over all
// of b's windows (b is judged against a's baseline, not its own).
void judge_against(Heatmap& b, const Heatmap& a);

std::string_view to_string(HeatmapRows rows);
std::string_view to_string(HeatmapMetric metric);
std::optional<HeatmapRows> heatmap_rows_from_string(std::string_view text);
// Kernel, Lane and Rank rows: keyed by kernels, so they need metric KernelDuration.
inline bool kernel_metric_rows(HeatmapRows rows) {
    return rows == HeatmapRows::Kernel || rows == HeatmapRows::Lane || rows == HeatmapRows::Rank ||
           rows == HeatmapRows::Role;
}
std::optional<HeatmapMetric> heatmap_metric_from_string(std::string_view text);

}  // namespace tokenscope::analysis
