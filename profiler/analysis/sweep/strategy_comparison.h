#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "sweep_summary.h"

namespace tokenscope::analysis {

// One decoding strategy of a sweep side by side with the others (docs/sweeps.md): TTFT and TPOT
// P50, P90 and std over all counted runs' requests pooled, since a batch-1 point has one TTFT per
// run and its spread only exists across repeats.
struct StrategyRow {
    std::int32_t point = 0;
    std::string strategy;  // as typed: greedy, beam:4, speculative:2:4
    std::string context;   // the point's other axes, "preset=llama-8b batch=1"; may be empty
    double requests = 0.0;
    double ttft_p50 = 0.0, ttft_p90 = 0.0, ttft_std = 0.0;  // ns; NaN = none
    double tpot_p50 = 0.0, tpot_p90 = 0.0, tpot_std = 0.0;  // ns; NaN = none
};

// One row per point, in point order; empty when the sweep has no strategy axis.
std::vector<StrategyRow> strategy_comparison(const std::vector<SweepPointSummary>& points,
                                             const std::vector<std::string>& axes);

// The rows as CSV with a header, times in ms, an empty cell where a figure is NaN:
// what sweep-report --strategies FILE.csv and the Sweep tab's export write.
void write_strategy_csv(std::ostream& out, const std::vector<StrategyRow>& rows);

}  // namespace tokenscope::analysis
