#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/sweep/sweep_summary.h"

namespace tokenscope::cli {

// What sweep-report reads: the points of one sweep of a .tokenscope file, or a set
// of serving-benchmark result files, one point each (docs/sweeps.md, Views).
struct SweepInput {
    std::string source;  // the file, or "N serving-benchmark results"
    std::string name;
    bool model = false;             // any point's runs came from the cost or serving model
    std::vector<std::string> axes;  // parameters that vary, in grid order
    std::vector<analysis::SweepPointRuns> points;
};

// sweep_id 0: the file's last sweep. Throws UsageError / FileError naming the file.
SweepInput load_sweep_input(const std::vector<std::string>& paths, std::int64_t sweep_id);

}  // namespace tokenscope::cli
