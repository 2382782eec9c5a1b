#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "trace/activity.h"
#include "trace/stop_token.h"

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

// Every activity of lanes 0 .. lanes - 1 of run `run_id`, a lane at a time, each in start
// order and read once through a LaneStream: a pass over a whole run larger than memory
// (a kernel heatmap, Find, a copy). `stop` is checked before each lane and every 65,536
// activities (trace::Cancelled).
void for_each_stored_activity(const StoreReader& reader, std::int64_t run_id, std::size_t lanes,
                              const std::function<void(const trace::Activity&)>& fn,
                              const trace::StopToken& stop = {});

}  // namespace tokenscope::store
