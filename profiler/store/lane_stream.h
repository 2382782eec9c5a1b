#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "trace/activity.h"

namespace tokenscope::store {

class StoreReader;

// One lane's activities read once, in start order, a stretch of time at a time: a pass
// over a run larger than memory (analysis/attribution/stored_analysis.h). Each chunk is
// decoded once, where StoreReader::for_each_activity over consecutive windows would find
// again every chunk that starts before each window. Chunks that overlap in time (late
// arrivals, commit flushes) are merged as for_each_activity merges them. The reader
// outlives the stream; its reads throw StoreError as the reader's do.
class LaneStream {
  public:
    LaneStream(const StoreReader& reader, std::int64_t run_id, std::uint16_t lane);
    ~LaneStream();
    LaneStream(const LaneStream&) = delete;
    LaneStream& operator=(const LaneStream&) = delete;

    // Hands over, in start order, every activity not handed over yet that starts before
    // t1 (whatever its end).
    void read_until(std::int64_t t1, const std::function<void(const trace::Activity&)>& fn);

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tokenscope::store
