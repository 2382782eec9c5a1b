#include "memory_run_writer.h"

#include <algorithm>
#include <stdexcept>

namespace tokenscope::capture {

std::uint16_t MemoryRunWriter::add_lane(const trace::Lane& lane) {
    if (data_.lanes.size() > 0xffff) throw std::length_error("more than 65536 lanes");
    data_.lanes.push_back(lane);
    return static_cast<std::uint16_t>(data_.lanes.size() - 1);
}

void MemoryRunWriter::finish() {
    std::stable_sort(data_.activities.begin(), data_.activities.end(),
                     [](const trace::Activity& a, const trace::Activity& b) {
                         return a.lane != b.lane ? a.lane < b.lane : a.start_ns < b.start_ns;
                     });
    data_.launches.finish();
    data_.graphs.finish();
    data_.info.complete = true;
    finished_ = true;
}

void MemoryRunWriter::abandon() {
    trace::RunInfo info = data_.info;
    data_ = trace::RunData{};
    data_.info = info;
    abandoned_ = true;
}

}  // namespace tokenscope::capture
