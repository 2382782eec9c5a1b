#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run_analysis.h"
#include "store/store_reader.h"
#include "stored_analysis.h"
#include "trace/progress.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// A run's analysis kept in its file (the step_attribution table, DESIGN.md section 17):
// whatever writes a run attributes it once, and every later breakdown reads the record
// instead of the activities (milliseconds instead of seconds per hundred million).

// The analysis of `run` from the record its file keeps for options.attribution, with
// options.verdict; nullopt when the file keeps none, or one whose steps are not the run's
// (framed anew by a step pattern). Throws store::StoreError naming the file when the
// record is malformed.
std::optional<RunAnalysis> read_stored_analysis(const store::StoreReader& reader,
                                                const trace::RunData& run,
                                                const StoredAnalysisOptions& options = {},
                                                const trace::StopToken& stop = {});

// Attributes each of `runs` of the file at `path` that is summarised (has activity totals)
// and has no record for options.attribution yet, slice by slice (attribute_stored_run),
// and writes the records into the file. Returns how many it wrote. Progress counts
// thousandths of each run. Throws trace::Cancelled once `stop` is requested (nothing
// written) and store::StoreError when the file cannot be read or written.
std::size_t attribute_stored_runs(const std::string& path, const std::vector<std::int64_t>& runs,
                                  const StoredAnalysisOptions& options = {},
                                  const trace::ProgressFn& progress = {},
                                  const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
