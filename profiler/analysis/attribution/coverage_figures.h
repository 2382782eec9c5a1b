#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "attribution.h"
#include "category.h"
#include "trace/activity_totals.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

class Coverage;

// Time attributed over a set of disjoint intervals.
struct UnionAttribution {
    std::int64_t total_ns = 0;
    CategoryNs assigned{};
    CategoryNs hidden{};

    void add(const StepAttribution& a);
};

// What the verdict reads of a run besides its steps' attribution: whole-run figures of
// its coverage and of its activities. coverage_figures() takes them from one Coverage and
// the activities in memory; analyse_stored_run (stored_analysis.h) adds them up slice by
// slice and reads the bytes from the stored totals.
struct CoverageFigures {
    // Engine iterations whose windows overlap: the union of the windows attributed, which
    // the run's totals count instead of the steps (each nanosecond once); unset otherwise.
    std::optional<UnionAttribution> iterations;
    std::int64_t nvlink_active_ns = 0;  // time a P2P copy (or NVLink collective) is active
    std::int64_t gpu_busy_ns = 0;       // time compute or memory GPU work is active
    double p2p_bytes = 0;               // bytes of P2P copies
    double gpu_work_bytes = 0;          // bytes of kernels, memsets and D2D copies
    bool kernel_bytes = false;          // some kernel carries a byte count
    bool any_activity = false;
};

// The union of the steps' windows, in order, when every step is an engine iteration and
// two windows overlap (asynchronous scheduling, docs/engine-traces.md); else empty.
std::vector<std::pair<std::int64_t, std::int64_t>> overlapping_iteration_union(
    const std::vector<trace::Step>& steps);

// The byte figures and any_activity from a run's activity totals.
void add_activity_figures(CoverageFigures& f, const trace::ActivityTotals& totals);

// All the figures of a run in memory from its coverage. Throws trace::Cancelled once
// `stop` is requested.
CoverageFigures coverage_figures(const trace::RunData& run, const Coverage& coverage,
                                 const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
