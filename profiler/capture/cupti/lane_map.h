#pragma once

#include <cstdint>
#include <unordered_map>

#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// Creates the run's lanes on first sight: one GpuStream lane per (device, context,
// stream), one CpuThread lane per (process, thread), one StepTrack per process.
class LaneMap {
  public:
    LaneMap(store::RunWriter& writer, std::int64_t process_id);

    std::uint16_t stream(std::uint32_t device, std::uint32_t context, std::uint32_t stream);
    std::uint16_t thread(std::int64_t process, std::int64_t thread);
    std::uint16_t step_track();
    // Host-side CUPTI work that belongs to no thread (overhead on a device or stream).
    std::uint16_t cupti_overhead();
    // Synchronizations whose API call never arrived, so their thread is unknown.
    std::uint16_t unattributed_sync();

  private:
    std::uint16_t add(const trace::Lane& lane);

    store::RunWriter& writer_;
    std::int64_t process_id_;
    // Keys pack their ids into 64 bits; the context keeps 24 bits, enough for the
    // contexts of one process (CUPTI numbers them from 1).
    std::unordered_map<std::uint64_t, std::uint16_t> streams_;
    std::unordered_map<std::uint64_t, std::uint16_t> threads_;
    std::uint64_t last_stream_key_ = ~0ull;
    std::uint16_t last_stream_lane_ = 0;
    int step_track_ = -1;
    int overhead_ = -1;
    int unattributed_sync_ = -1;
};

}  // namespace tokenscope::capture::cupti
