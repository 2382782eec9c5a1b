#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/metrics/metrics.h"
#include "input_runs.h"

namespace tokenscope::cli {

// The latency table of one run: TTFT, TPOT, ITL, E2E and step distributions in ms.
void print_stats(std::ostream& out, const LoadedRun& run, const analysis::RunMetrics& m, bool csv);
nlohmann::json stats_json(const LoadedRun& run, const analysis::RunMetrics& m);

}  // namespace tokenscope::cli
