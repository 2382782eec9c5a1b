#pragma once

#include <cstdint>

#include "attribution_record.h"
#include "launch_delay_stream.h"
#include "run_analysis.h"
#include "store/store_reader.h"
#include "trace/progress.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

struct StoredAnalysisOptions {
    VerdictOptions verdict;
    AttributionOptions attribution;
    // About how many activities one slice of time holds in memory at once.
    std::int64_t slice_activities = std::int64_t{1} << 19;
    // Launch delays kept exactly, before they go into a histogram (LaunchDelayStream).
    std::size_t exact_launch_delays = LaunchDelayStream::kExactDelays;
};

// analyse_run for a run left in its file (trace::RunData::in_file, DESIGN.md section 17),
// in bounded memory: the run's time is cut into slices of about
// options.slice_activities activities each, and each slice's activities (every lane's,
// through StoreReader::for_each_activity) get a coverage of their own. Attribution is
// exact: a step or window spanning slices is attributed part by part, and the parts add
// up to what one whole-run coverage gives. The verdict's figures add up the same way
// (bytes from the stored totals); the launch-delay P95 is exact up to
// LaunchDelayStream::kExactDelays kernels, beyond that within its stated relative error.
// `run` is the run as loaded without its activities (its steps, lanes and names).
// Progress counts slices. Throws trace::Cancelled once `stop` is requested and
// store::StoreError when the file cannot be read.
RunAnalysis analyse_stored_run(const store::StoreReader& reader, const trace::RunData& run,
                               const StoredAnalysisOptions& options = {},
                               const trace::ProgressFn& progress = {},
                               const trace::StopToken& stop = {});

// The part of analyse_stored_run that reads the activities (options.verdict unused): what a
// file keeps of it (stored_attribution.h).
AttributionRecord attribute_stored_run(const store::StoreReader& reader, const trace::RunData& run,
                                       const StoredAnalysisOptions& options = {},
                                       const trace::ProgressFn& progress = {},
                                       const trace::StopToken& stop = {});
// The attribution's driving lane of a run left in its file: `requested` when it is a CPU
// thread, else chosen as resolve_driving_lane chooses it, from the stored per-lane totals.
int stored_driving_lane(const store::StoreReader& reader, const trace::RunData& run,
                        int requested = -1, const trace::StopToken& stop = {});

// The rest: the summaries, phases and verdict of `run` from its record.
RunAnalysis analysis_from_record(const trace::RunData& run, AttributionRecord record,
                                 const VerdictOptions& verdict = {},
                                 const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
