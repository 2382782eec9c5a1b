#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "analysis/attribution/run_analysis.h"
#include "arg_parser.h"
#include "input_runs.h"

namespace tokenscope::cli {

// The per-step attribution and the assessment, from one coverage of the run.
using Breakdown = analysis::RunAnalysis;

Breakdown compute_breakdown(const trace::RunData& run);
// The same for a run as load_inputs gave it: one left in its file (Needs::Totals) is
// analysed slice by slice from the file (analysis/attribution/stored_analysis.h), with a
// progress bar of its own; any other in memory.
Breakdown compute_breakdown(const LoadedRun& run, const ArgParser& p);

// Categories with shares and hidden time, the verdict with its evidence, phases, floor.
void print_breakdown(std::ostream& out, const LoadedRun& run, const Breakdown& b, bool csv);
// One row per step: the six categories in ns, floor and distance to it.
void print_step_rows(std::ostream& out, const LoadedRun& run, const Breakdown& b, bool csv);
nlohmann::json breakdown_json(const LoadedRun& run, const Breakdown& b, bool with_steps);

}  // namespace tokenscope::cli
