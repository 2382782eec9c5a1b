#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "analysis/ranks/rank_steps.h"
#include "input_runs.h"

namespace tokenscope::cli {

// breakdown --ranks: per step the straggler and its lateness, and per rank its
// lateness, communication, overlap with computation and attribution.
void print_rank_steps(std::ostream& out, const LoadedRun& run,
                      const std::vector<analysis::StepRanks>& steps, bool csv);
nlohmann::json rank_steps_json(const trace::RunData& run,
                               const std::vector<analysis::StepRanks>& steps);

}  // namespace tokenscope::cli
