#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "trace/run_data.h"

namespace tokenscope::import {

class NsysDatabase;

// Creates the run's lanes on first use, keyed the way Nsight Systems keys its
// rows: one GpuStream lane per (device, stream) carrying kernels, copies and
// memsets (the export has no copy-engine id, so copies stay on their stream,
// as in Nsight's own timeline), one CpuThread lane per thread named from
// ThreadNames, one StepTrack lane for NVTX step ranges, one Counter lane per metric.
class NsysLaneMap {
  public:
    NsysLaneMap(const NsysDatabase& db, trace::RunData& run);

    // nsys packs pid and tid into one serialized global id.
    static std::int64_t pid_of(std::int64_t global_id) { return (global_id >> 24) & 0xFFFFFF; }
    static std::int64_t tid_of(std::int64_t global_id) { return global_id & 0xFFFFFF; }

    std::uint16_t stream(std::int32_t device, std::int64_t stream, std::int64_t global_pid);
    std::uint16_t thread(std::int64_t global_tid);
    std::uint16_t step_track();
    std::uint16_t counter(std::int32_t device, std::int64_t id, const std::string& name);

  private:
    std::uint16_t add(trace::Lane lane);
    void load_thread_names(const NsysDatabase& db);

    std::string path_;
    trace::RunData& run_;
    std::unordered_map<std::int64_t, std::string> thread_names_;  // by global tid
    std::unordered_map<std::uint64_t, std::uint16_t> streams_;
    std::unordered_map<std::int64_t, std::uint16_t> threads_;
    std::unordered_map<std::int64_t, std::uint16_t> counters_;
    std::int32_t step_track_ = -1;
    std::uint64_t last_stream_key_ = ~std::uint64_t{0};
    std::uint16_t last_stream_lane_ = 0;
    std::int64_t last_thread_key_ = -1;  // global ids are never negative
    std::uint16_t last_thread_lane_ = 0;
};

}  // namespace tokenscope::import
