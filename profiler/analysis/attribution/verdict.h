#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/metrics/distribution.h"
#include "attribution.h"
#include "category.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// The verdict rules of docs/attribution.md, Verdicts; each fires when its value is strictly above
// its threshold.
struct VerdictOptions {
    double transfer_share = 0.25;    // (nvlink + pcie) / total step time
    double scheduling_p95_ns = 3e6;  // P95 of per-step scheduling time
    // P95 of kernel start - max(its API call start, end of the work queued before
    // it on its stream): launch latency the stream's own queue does not explain
    double launch_delay_p95_ns = 5e6;
    double nvlink_fraction = 0.90;  // P2P bytes / P2P-active time / nvlink_bandwidth
    double gpu_share = 0.75;        // (gpu_compute + gpu_memory) / total
    double cpu_share = 0.75;        // cpu / total, checked last (host-only runs)
    // Memory-bound GPU work whose kernels move less than this fraction of the peak memory
    // bandwidth is not limited by the bandwidth but by latency or occupancy (small grids,
    // dependent kernels, gaps between them inside the GPU work).
    double bandwidth_bound_fraction = 0.40;
};

// One rule's evidence: the measured value next to the threshold it was held against.
// `available` is false when the run lacks the data (no P2P copies, no correlated kernels,
// no NVLink bandwidth): the rule then cannot fire and `value` is 0.
struct RuleResult {
    std::string name;  // "transfer_share", "scheduling_p95_ns", "launch_delay_p95_ns",
                       // "nvlink_fraction", "gpu_share"
    double value = 0;
    double threshold = 0;
    bool available = true;
    bool fired = false;
    // A percentile read from a histogram (a run too large to keep every value): within
    // this fraction of the exact one; 0 when exact.
    double relative_error = 0;
};

struct Verdict {
    // "transfer-bound", "scheduling-bound", "cpu-bound", "nvlink-bound", "gpu-bound", "mixed",
    // or "none" when the run cannot be judged (no steps, or no GPU activity at all: a
    // client-side benchmark result); `advice` then says why and what to open instead.
    std::string primary = "mixed";
    std::string bound_by;  // "memory" or "compute" when gpu-bound, else empty
    // "latency" when memory-bound work reaches under VerdictOptions::bandwidth_bound_fraction
    // of peak bandwidth (latency- or occupancy-limited), "bandwidth" at or above it; empty
    // when not memory-bound or the achieved bandwidth is unknown.
    std::string limited_by;
    std::string advice;
    // Bytes of kernels, memsets and D2D copies / time the GPU is busy with them, as a
    // fraction of gpu.peak_bandwidth. Absent (not 0) when the peak is unknown or no
    // kernel carries a byte count (training traces): copies alone would read as
    // "0.3 % of peak", a figure with no data behind it.
    std::optional<double> achieved_bandwidth_fraction;
    std::vector<RuleResult> rules;  // every rule, in priority order
};

struct StepSummary {
    std::int64_t steps = 0;
    // Sum of step durations (batched token steps each count); engine iterations whose
    // windows overlap count each nanosecond once (the union of their windows).
    std::int64_t total_ns = 0;
    CategoryNs assigned_ns{};
    CategoryNs hidden_ns{};
    std::array<double, kCategoryCount> share{};   // assigned / total; 0 when total is 0
    std::array<double, kCategoryCount> p95_ns{};  // P95 over steps of per-step time
};

struct PhaseSummary {
    trace::Phase phase = trace::Phase::Decode;
    std::int64_t count = 0;
    double mean_ns = 0;
    std::array<double, kCategoryCount> mean_category_ns{};
};

// Steps with floor_ns > 0 only; the step's duration is its ITL.
struct FloorSummary {
    Distribution distance_ns;  // duration - floor_ns
    Distribution ratio;        // duration / floor_ns
};

struct RunAssessment {
    StepSummary summary;
    std::vector<PhaseSummary> phases;  // phases that occur, in enum order
    FloorSummary floor;
    Verdict verdict;
};

class Coverage;
struct CoverageFigures;
struct LaunchDelayP95;

// `attributions[i]` belongs to run.steps[i], attributed from `coverage` (the run's, as
// analyse_run builds it, which is the call views and the CLI use: run_analysis.h).
// Throws trace::Cancelled once `stop` is requested.
RunAssessment assess_run(const trace::RunData& run, const Coverage& coverage,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options = {},
                         const trace::StopToken& stop = {});
// The same with the launch-delay rule's figure already measured (launch_delay_p95 reads
// only the activities: analyse_run measures it beside the coverage, on another thread).
RunAssessment assess_run(const trace::RunData& run, const Coverage& coverage,
                         const std::vector<StepAttribution>& attributions,
                         std::optional<double> launch_delay_p95_ns,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop);
// For attributions made elsewhere (hand-made in tests): builds a coverage of its own for
// the rules that read the whole run (NVLink fraction, achieved bandwidth).
RunAssessment assess_run(const trace::RunData& run,
                         const std::vector<StepAttribution>& attributions,
                         const VerdictOptions& verdict_options = {},
                         const AttributionOptions& attribution_options = {},
                         const trace::StopToken& stop = {});

// From figures added up elsewhere: a run left in its file (stored_analysis.h).
RunAssessment assess_run(const trace::RunData& run,
                         const std::vector<StepAttribution>& attributions,
                         const CoverageFigures& figures, const LaunchDelayP95& launch_delay,
                         const VerdictOptions& verdict_options, const trace::StopToken& stop);

}  // namespace tokenscope::analysis
