#pragma once

#include <cstdint>

#include "diff.h"
#include "trace/progress.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::store {
class StoreReader;
}

namespace tokenscope::analysis {

// The ActivityFigures of a run whose activities stayed in its .tokenscope file
// (trace::RunData::in_file, DESIGN.md section 17), by one pass over them a stretch of time
// at a time: each lane read once (store::LaneStream), memory bounded by the names and the
// iteration windows still open, not by the activities. Counts, totals and means are
// exact; each name's P95 comes from a duration histogram built in the pass, within
// store::DurationHistogram::kRelativeError of the exact one (NameStats::p95_error); the
// window times are iteration_window_times' (the same operations, split by the same sweep).
// The stretches are equal spans of the run's time of about `stretch_activities` each (tests
// make them small). Throws trace::Cancelled on `stop` or when `progress` (stretches done,
// of all) says so, and StoreError for a damaged file.
inline constexpr std::int64_t kStretchActivities = 4'000'000;
ActivityFigures stored_activity_figures(const store::StoreReader& reader, const trace::RunData& run,
                                        const trace::ProgressFn& progress = {},
                                        const trace::StopToken& stop = {},
                                        std::int64_t stretch_activities = kStretchActivities);

}  // namespace tokenscope::analysis
