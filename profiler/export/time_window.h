#pragma once

#include <cstdint>

#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::store {
class StoreReader;
}

namespace tokenscope::exporter {

// [start_ns, end_ns) on the run's clock.
struct TimeWindow {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

// The run's whole span: from its earliest activity start (from the stored totals for a
// run left in its file), step start or counter sample, the zero of the timeline's ruler,
// to just past its last activity end, step end or sample; {0, 1} for an empty run.
TimeWindow run_span(const trace::RunData& run);

// What a trace of the window shows of a run in memory: every lane and name, the
// activities that overlap it (Activity::overlaps), the launch facts and graph nodes of
// those, the steps and requests that overlap it, the counter samples inside it, and every
// diagnostic.
trace::RunData cut_to_window(const trace::RunData& run, TimeWindow window);

// The same cut of a run whose activities stayed in its file (`light`, read without them:
// RunData::in_file), read from `reader`: only the activities overlapping the window, lane
// by lane; the launch facts and graph nodes stream past once and those of the window's
// activities are kept. Throws trace::FileError naming the file, before reading an
// activity, when the window's activities (counted from the timeline summaries) would not
// fit the memory budget; trace::Cancelled when progress (over the lanes) says stop.
trace::RunData read_window(const store::StoreReader& reader, const trace::RunData& light,
                           TimeWindow window, const trace::ProgressFn& progress = {});

}  // namespace tokenscope::exporter
