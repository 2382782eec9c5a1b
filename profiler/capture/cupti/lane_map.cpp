#include "lane_map.h"

#include <stdexcept>
#include <string>

namespace tokenscope::capture::cupti {
namespace {

constexpr std::size_t kMaxLanes = 65535;  // Activity::lane is 16 bits

}  // namespace

LaneMap::LaneMap(store::RunWriter& writer, std::int64_t process_id)
    : writer_(writer), process_id_(process_id) {}

std::uint16_t LaneMap::add(const trace::Lane& lane) {
    if (streams_.size() + threads_.size() + 3 >= kMaxLanes)
        throw std::runtime_error("CUPTI trace has more than 65535 streams and threads");
    return writer_.add_lane(lane);
}

std::uint16_t LaneMap::stream(std::uint32_t device, std::uint32_t context, std::uint32_t stream) {
    const std::uint64_t key = (static_cast<std::uint64_t>(device & 0xff) << 56) |
                              (static_cast<std::uint64_t>(context & 0xffffff) << 32) | stream;
    // Consecutive records mostly share a stream: skip the hash lookup for them.
    if (key == last_stream_key_) return last_stream_lane_;
    auto it = streams_.find(key);
    if (it == streams_.end()) {
        // Short enough for the timeline's lane labels; Nsight shows "Stream N" alike.
        const std::string name = "GPU " + std::to_string(device) + " stream " +
                                 std::to_string(stream) + " (ctx " + std::to_string(context) + ")";
        trace::Lane lane{trace::LaneKind::GpuStream, static_cast<std::int32_t>(device), process_id_,
                         stream, name};
        it = streams_.emplace(key, add(lane)).first;
    }
    last_stream_key_ = key;
    last_stream_lane_ = it->second;
    return it->second;
}

std::uint16_t LaneMap::thread(std::int64_t process, std::int64_t thread) {
    const std::uint64_t key =
        (static_cast<std::uint64_t>(process) << 32) ^ static_cast<std::uint64_t>(thread);
    auto it = threads_.find(key);
    if (it == threads_.end()) {
        trace::Lane lane{trace::LaneKind::CpuThread, -1, process, thread,
                         "thread " + std::to_string(thread)};
        it = threads_.emplace(key, add(lane)).first;
    }
    return it->second;
}

std::uint16_t LaneMap::step_track() {
    if (step_track_ < 0)
        step_track_ = add({trace::LaneKind::StepTrack, -1, process_id_, 0, "NVTX steps"});
    return static_cast<std::uint16_t>(step_track_);
}

std::uint16_t LaneMap::cupti_overhead() {
    if (overhead_ < 0)
        overhead_ = add({trace::LaneKind::CpuThread, -1, process_id_, -1, "CUPTI overhead"});
    return static_cast<std::uint16_t>(overhead_);
}

std::uint16_t LaneMap::unattributed_sync() {
    if (unattributed_sync_ < 0)
        unattributed_sync_ = add(
            {trace::LaneKind::CpuThread, -1, process_id_, -2, "synchronization (thread unknown)"});
    return static_cast<std::uint16_t>(unattributed_sync_);
}

}  // namespace tokenscope::capture::cupti
