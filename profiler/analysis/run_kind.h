#pragma once

#include <string_view>

#include "analysis/heatmap/heatmap.h"
#include "trace/run_data.h"

namespace tokenscope::analysis {

// What a run is, for the choices a view makes before the user makes them
// (heatmap rows and windows, which advice a verdict gives):
//   Decode  - one of our own decode runs (model, cpu, cuda): requests, token steps;
//   Trace   - a traced program (Nsight Systems, PyTorch profiler, injection):
//             kernels and a few iterations, often no requests;
//   Serving - a serving benchmark's results: requests, no kernels.
enum class RunKind : std::uint8_t { Decode, Trace, Serving };

RunKind kind_of(const trace::RunInfo& info);
std::string_view to_string(RunKind kind);

// The heatmap a run opens with: phase rows over 16-step windows for decode
// runs; for traces, kernel rows over time windows that give at least 8
// columns (a trace with 6 iterations has one 16-step window); for serving
// results, TTFT by phase over such time windows.
HeatmapSpec default_heatmap_spec(const trace::RunData& run);

// The heatmap two runs are compared on: A's default, except that two traces whose
// kernels are mostly named differently (two engines, or NVIDIA against AMD: under half
// of the smaller run's kernel names occur in the other) compare by kernel role, the only
// rows both have (DESIGN.md section 14, Kernel roles).
HeatmapSpec default_compare_spec(const trace::RunData& a, const trace::RunData& b);
// |names of A's kernels ∩ names of B's| / the smaller of the two counts; 0 when either
// has no kernels.
double shared_kernel_name_share(const trace::RunData& a, const trace::RunData& b);

// A 1-2-5 time window that splits `span_ns` into at least `min_columns`
// columns (and about twice that at most).
std::int64_t window_for_columns(std::int64_t span_ns, std::int64_t min_columns);

}  // namespace tokenscope::analysis
