#include "memory_run_writer.h"

#include <algorithm>
#include <stdexcept>

#include "trace/activity_order.h"

namespace tokenscope::capture {

std::uint16_t MemoryRunWriter::add_lane(const trace::Lane& lane) {
    if (data_.lanes.size() > 0xffff) throw std::length_error("more than 65536 lanes");
    data_.lanes.push_back(lane);
    return static_cast<std::uint16_t>(data_.lanes.size() - 1);
}

void MemoryRunWriter::finish() {
    // The store's order, not trace::activity_order: equal starts stay as added, so a run
    // kept in memory reads as the same run written and read back.
    std::stable_sort(data_.activities.begin(), data_.activities.end(), trace::lane_start_order);
    data_.launches.finish();
    data_.graphs.finish();
    data_.info.complete = true;
    finished_ = true;
}

void MemoryRunWriter::abandon() {
    trace::RunData empty;
    empty.info = std::move(data_.info);
    data_ = std::move(empty);
    abandoned_ = true;
}

}  // namespace tokenscope::capture
