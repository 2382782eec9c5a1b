#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "import/importer.h"
#include "import/kineto/kernel_launch.h"

namespace tokenscope::import {

// Counts of what the file held, for tests and `info`.
struct KinetoStats {
    std::int64_t events = 0;       // elements of traceEvents
    std::int64_t flow_events = 0;  // ac2g / async_gpu "s" and "f" events
    std::int64_t flows_bound = 0;  // of those, tied to a runtime call or GPU activity
    // Windows the events were parsed in (kineto/trace_reader_windows.cpp); 0 when the
    // trace was parsed in one piece or streamed in slices.
    std::int64_t windows = 0;
    // The gzip was inflated on a second thread while its windows were parsed.
    bool inflated_alongside = false;
};

// The run plus the kernel launch facts RunData has no room for.
struct KinetoImport {
    trace::RunData run;
    std::vector<kineto::KernelLaunch> launches;
    KinetoStats stats;
};

// PyTorch profiler (Kineto) trace JSON, plain or gzip, streamed: memory grows
// with the number of events kept, never with the size of the JSON text.
class KinetoImporter : public Importer {
  public:
    std::string_view format() const override { return "kineto"; }
    bool accepts(std::string_view head) const override;
    trace::RunData import(const std::string& path, const ImportOptions& options,
                          const trace::ProgressFn& progress) const override;
    KinetoImport import_with_launches(const std::string& path, const ImportOptions& options,
                                      const trace::ProgressFn& progress = {}) const;
};

}  // namespace tokenscope::import
