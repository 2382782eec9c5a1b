#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::exporter {

// Writes a run as Chrome trace event JSON that Perfetto UI and chrome://tracing
// open, in Kineto's conventions so the Kineto importer reads it back: "X"
// events with ts/dur in microseconds (exactly three decimals, from integer ns),
// GPU lanes as pid = device / tid = stream, CPU lanes as pid / tid, "M"
// process_name / thread_name metadata, "ac2g" flows from each API call to the
// first GPU activity of its correlation, counters as "C" events, and steps on
// a separate "Steps" process. Streams: memory use does not grow with the run.
class ChromeTraceWriter {
  public:
    explicit ChromeTraceWriter(const trace::RunData& run);

    void write(std::ostream& out, const trace::ProgressFn& progress = {}) const;
    // Writes to a file; throws ExportError naming it when it cannot be written.
    void write_file(const std::string& path, const trace::ProgressFn& progress = {}) const;

    // Kineto's category for an activity kind ("kernel", "gpu_memcpy", "cuda_runtime", ...);
    // sync calls are "cuda_runtime" too, as in Kineto, which tells them apart by name.
    static const char* category(trace::ActivityKind kind);

    struct Track {
        std::int64_t pid = 0;
        std::int64_t tid = 0;
    };
    const Track& track(std::uint16_t lane) const { return tracks_[lane]; }
    std::int64_t steps_pid() const { return steps_pid_; }

  private:
    void assign_tracks();
    void write_metadata(std::string& buf, std::ostream& out) const;
    void write_activities(std::string& buf, std::ostream& out,
                          const trace::ProgressFn& progress) const;
    void write_flows(std::string& buf, std::ostream& out) const;
    void write_counters(std::string& buf, std::ostream& out) const;
    void write_steps(std::string& buf, std::ostream& out) const;

    const trace::RunData& run_;
    std::vector<Track> tracks_;  // per lane
    std::int64_t steps_pid_ = 0;
};

}  // namespace tokenscope::exporter
