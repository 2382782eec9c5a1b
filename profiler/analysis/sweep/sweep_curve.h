#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "power_law_fit.h"
#include "sweep_summary.h"

namespace tokenscope::analysis {

// A latency figure against a load or size axis over a sweep's points, with its
// Pareto frontier, power-law fit and Kneedle knee (docs/sweeps.md).
struct SweepCurve {
    std::string x_name, y_name;
    std::vector<double> x, y;           // sorted by x; points without both values left out
    std::vector<std::int32_t> points;   // the grid point of each sample
    std::vector<std::size_t> frontier;  // indices into x/y
    PowerLawFit fit;
    std::optional<std::size_t> knee;  // index into x/y
};

// A point's value by name: a numeric parameter ("qps", "batch") or a figure's median
// ("ttft_p99", "throughput_tok_s"); NaN when it has neither.
double point_value(const SweepPointSummary& point, const std::string& name);
SweepCurve sweep_curve(const std::vector<SweepPointSummary>& points, const std::string& x_name,
                       const std::string& y_name);

}  // namespace tokenscope::analysis
