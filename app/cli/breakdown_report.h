#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/attribution/run_analysis.h"
#include "arg_parser.h"
#include "input_runs.h"
#include "terminal_progress.h"

namespace tokenscope::cli {

// The per-step attribution and the assessment, from one coverage of the run.
using Breakdown = analysis::RunAnalysis;

Breakdown compute_breakdown(const trace::RunData& run);
// The same for a run as load_inputs gave it: one left in its file (Needs::Totals) is read
// from the attribution its file keeps (analysis/attribution/stored_attribution.h), else
// analysed slice by slice from the file (stored_analysis.h), with a progress bar of its
// own; any other in memory.
Breakdown compute_breakdown(const LoadedRun& run, const ArgParser& p);
// After a command wrote `runs` into the file at `path` (import, run): attributes them once
// and keeps the records in the file, with a progress bar of its own, so every later
// breakdown of them reads the records instead of their activities.
void attribute_written_runs(const std::string& path, const std::vector<std::int64_t>& runs,
                            TerminalProgress::Mode mode);

// Categories with shares and hidden time, the verdict with its evidence, phases, floor.
void print_breakdown(std::ostream& out, const LoadedRun& run, const Breakdown& b, bool csv);
// One row per step: the six categories in ns, floor and distance to it.
void print_step_rows(std::ostream& out, const LoadedRun& run, const Breakdown& b, bool csv);
nlohmann::json breakdown_json(const LoadedRun& run, const Breakdown& b, bool with_steps);

}  // namespace tokenscope::cli
