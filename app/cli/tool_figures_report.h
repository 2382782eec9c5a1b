#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/metrics/client_figures.h"
#include "trace/run_data.h"

namespace tokenscope::cli {

// The load generator's own figures beside ours, and its measurement window, for a
// client run (docs/metrics.md, Load generators' own figures); nothing for other runs.
// Text: the window, one sentence per mean ("LLMPerf inter-token latency, TTFT included:
// 15.78 ms; Tokenscope ITL, the gaps between tokens: 11.86 ms"), then every figure in a
// table with its difference and check, and the flagged ones named. CSV: the table.
void print_tool_figures(std::ostream& out, const trace::RunData& run, const analysis::RunMetrics& m,
                        bool csv);
// {"tool_figures": [...], "measurement_window": {...}} members added to a stats run object.
void add_tool_figures_json(nlohmann::json& out, const trace::RunData& run,
                           const analysis::RunMetrics& m);

}  // namespace tokenscope::cli
