#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/timeline/timeline_lod.h"
#include "request_track.h"
#include "trace/run_data.h"

namespace tokenscope::ui {

// Per-lane lookup of what overlaps a time window, so painting and hit tests
// cost what is visible. Needs activities sorted by (lane, start) and counters
// by (lane, time) (RunLoader::normalize). Adds about 1/8 byte per activity, plus
// analysis::TimelineLod's ~2.6 bytes on lanes without nesting.
class TimelineIndex {
  public:
    struct Range {
        std::size_t begin = 0;
        std::size_t end = 0;
        std::size_t size() const { return end - begin; }
    };

    explicit TimelineIndex(const trace::RunData& run);

    const trace::RunData& run() const { return *run_; }
    std::int64_t min_time() const { return min_ns_; }
    std::int64_t max_time() const { return max_ns_; }

    Range lane_activities(std::size_t lane) const { return lanes_[lane].acts; }
    // A superset of the lane's activities overlapping [t0, t1), at most 63 extra
    // on the left; every overlapping one is inside.
    Range visible(std::size_t lane, std::int64_t t0, std::int64_t t1) const;
    // Calls fn(index, depth) for each activity overlapping [t0, t1) in start order;
    // depth is the nesting level (API calls inside host ranges).
    void for_each_visible(std::size_t lane, std::int64_t t0, std::int64_t t1,
                          const std::function<void(std::size_t, int)>& fn) const;
    int max_depth(std::size_t lane) const { return lanes_[lane].max_depth; }
    // Level of detail of a lane without nesting (analysis' Tracy-style folding);
    // nullptr for nested lanes, which fold per depth row instead.
    const analysis::TimelineLod* lod(std::size_t lane) const { return lanes_[lane].lod.get(); }

    Range counter_samples(std::size_t lane) const { return lanes_[lane].counters; }
    Range visible_counters(std::size_t lane, std::int64_t t0, std::int64_t t1) const;
    double counter_max(std::size_t lane) const { return lanes_[lane].counter_max; }

    // Steps in start order (indices into run.steps) and those overlapping [t0, t1).
    const std::vector<std::uint32_t>& steps_by_start() const { return step_order_; }
    Range visible_steps(std::int64_t t0, std::int64_t t1) const;
    // The request track of a joined run (empty otherwise).
    const RequestTrack& requests() const { return requests_; }

    // Lanes with activities of the same correlation id, searched within `window_ns`
    // after an API call or before GPU work; SIZE_MAX when none.
    std::size_t correlated(std::size_t activity, std::int64_t window_ns) const;
    // Every such activity, at most `limit`, in lane then start order: a cudaGraphLaunch
    // links to all the kernels of its graph, a kernel to its one call.
    std::vector<std::size_t> correlated_all(std::size_t activity, std::int64_t window_ns,
                                            std::size_t limit = 1024) const;

    static constexpr std::size_t kBlock = 64;
    // How far apart an API call and its GPU work may be (queueing can delay a launch):
    // the window of the hover's links and the tooltip's count.
    static constexpr std::int64_t kLinkWindowNs = 500'000'000;

  private:
    struct LaneIndex {
        Range acts;
        Range counters;
        std::vector<std::int64_t> block_max_end;  // running max of end, per kBlock activities
        int max_depth = 0;
        double counter_max = 0.0;
        std::shared_ptr<const analysis::TimelineLod> lod;
    };

    void index_activities();
    void index_counters();
    void index_steps();

    const trace::RunData* run_;
    std::vector<LaneIndex> lanes_;
    std::vector<std::uint32_t> step_order_;
    std::vector<std::int64_t> step_block_max_end_;
    RequestTrack requests_;
    std::int64_t min_ns_ = 0;
    std::int64_t max_ns_ = 0;
};

}  // namespace tokenscope::ui
