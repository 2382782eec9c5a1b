#pragma once

#include <string>
#include <vector>

#include "import/importer.h"
#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::ui {

// Opens one file into runs (Qt-free, so the load job can run it on any thread).
class RunLoader {
  public:
    // Any format the engine knows, decided by content. Throws std::runtime_error whose
    // message names the file and the problem; trace::Cancelled when progress says stop.
    // `options` carry the step pattern (the GUI's "Step pattern" field).
    static std::vector<trace::RunData> load(const std::string& path,
                                            const trace::ProgressFn& progress,
                                            const import::ImportOptions& options = {});
    // Puts activities in (lane, start) order and counters in (lane, time) order,
    // as TimelineIndex needs; a no-op for runs read from a store, which come sorted.
    static void normalize(trace::RunData& run);
};

}  // namespace tokenscope::ui
