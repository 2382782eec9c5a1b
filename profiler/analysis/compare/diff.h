#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/category.h"
#include "analysis/heatmap/heatmap.h"
#include "analysis/heatmap/heatmap_diff.h"
#include "analysis/metrics/distribution.h"
#include "analysis/metrics/metrics.h"
#include "iteration_diff.h"
#include "mann_whitney.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// One statistic of A and B. delta = b - a; delta_pct = 100 * delta / a, nullopt when a == 0.
struct StatDelta {
    double a = 0, b = 0, delta = 0;
    std::optional<double> delta_pct;
};

// A metric of docs/metrics.md (ttft, tpot, itl, e2e, step) in both runs.
struct MetricDiff {
    std::string_view name;
    Distribution a, b;
    StatDelta mean, p50, p90, p95, p99;
    MannWhitneyResult test;    // on the sample sets
    bool significant = false;  // test.p_value < DiffOptions::alpha
};

struct NameStats {
    std::int64_t count = 0;
    std::int64_t total_ns = 0;
    double mean_ns = 0;
    double p95_ns = 0;
    // p95_ns's relative error bound: 0 when exact; a run read from its file takes it from a
    // duration histogram (store::DurationHistogram::kRelativeError, "±0.8%").
    double p95_error = 0;
};

// What diff_runs reads from a run's activities: per-name statistics of kernels and ranges
// (indexed by the run's string ids) and each step's iteration_window_times. Made by one
// pass over a run's activities, in memory or in its file (stored_diff.h).
struct ActivityFigures {
    std::vector<NameStats> kernels;
    std::vector<NameStats> ranges;
    std::vector<WindowTime> window_times;
};

// Kernels (or ranges) of one name in both runs; a side where the name is absent is zeros.
struct NameDiff {
    std::string name;
    NameStats a, b;
    bool in_a = false, in_b = false;
    std::int64_t count_delta = 0, total_delta_ns = 0;
    double mean_delta_ns = 0, p95_delta_ns = 0;
};

struct CategoryDiff {
    Category category = Category::GpuCompute;
    std::int64_t a_ns = 0, b_ns = 0, delta_ns = 0;  // attribution summed over all steps
};

// Token `index` of request `request` in both runs (durations in ns).
struct StepPair {
    std::int64_t request = 0;
    std::int32_t index = 0;
    std::int64_t a_ns = 0, b_ns = 0;
};

struct DiffOptions {
    MetricsOptions metrics;
    AttributionOptions attribution;
    double alpha = 0.01;                 // significance level of the Mann-Whitney test
    std::optional<HeatmapSpec> heatmap;  // computed for both runs when set
};

struct RunDiff {
    std::array<MetricDiff, 5> metrics;  // ttft, tpot, itl, e2e, step
    // Ordered by total time in A + B, descending, then by name.
    std::vector<NameDiff> kernels;
    std::vector<NameDiff> ranges;
    std::array<CategoryDiff, kCategoryCount> categories;
    std::vector<StepPair> steps;  // aligned by (request, index), in that order
    std::size_t steps_only_a = 0, steps_only_b = 0;
    std::optional<Heatmap> heatmap_a, heatmap_b;
    std::optional<HeatmapDiff> heatmap;
    // Engine iterations aligned by phase and index (docs/compare.md, Engine
    // iterations); empty unless both runs have iterations.
    IterationDiff iterations;
};

// What diff_runs may be handed ready-made instead of computing it: the GUI has the
// per-step attribution of each run (RunAnalysis) and its heatmaps already, so a
// comparison builds no second coverage. A null member is computed. The heatmaps must
// be of options.heatmap's spec; they are copied (B is judged against A's SLA).
struct DiffInputs {
    const std::vector<StepAttribution>* steps_a = nullptr;  // one per a.steps[i]
    const std::vector<StepAttribution>* steps_b = nullptr;
    const Heatmap* heatmap_a = nullptr;
    const Heatmap* heatmap_b = nullptr;
    // What the activities give, read from the file of a run left there (stored_diff.h).
    const ActivityFigures* figures_a = nullptr;
    const ActivityFigures* figures_b = nullptr;
};

// docs/compare.md: B compared with A. Throws trace::Cancelled once `stop` is
// requested (checked between the parts and inside the passes over activities).
RunDiff diff_runs(const trace::RunData& a, const trace::RunData& b, const DiffOptions& options = {},
                  const trace::StopToken& stop = {});
RunDiff diff_runs(const trace::RunData& a, const trace::RunData& b, const DiffOptions& options,
                  const DiffInputs& inputs, const trace::StopToken& stop = {});

// For each id of `from`, the id of the same text in `to`, or StringTable::kAbsent
// (interned ids are per run; heaptrack remaps them the same way).
std::vector<std::uint32_t> remap_string_ids(const trace::StringTable& from,
                                            const trace::StringTable& to);

// Per-name count, total, mean and P95 of durations of activities of one kind,
// indexed by the run's string ids.
std::vector<NameStats> name_stats(const trace::RunData& run, trace::ActivityKind kind,
                                  const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
