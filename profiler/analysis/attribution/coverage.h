#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "attribution.h"
#include "category.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// The run's timeline cut into segments, each with the set of categories active in it
// (bit i = Category i; scheduling is the empty set): the priority sweep over the
// categories' unions (category_intervals.h), built once in O(N log lanes); then any
// interval is attributed by a binary search and a walk over the segments it spans.
// `stop` is checked while building and while attributing steps (trace::Cancelled).
// Building one for a whole run is the costly part of attribution: analyse_run
// (run_analysis.h) builds one and reads both the steps and the verdict from it.
class Coverage {
  public:
    Coverage(const trace::RunData& run, const AttributionOptions& options,
             const trace::StopToken& stop = {});
    // Only activities overlapping [t0, t1): cheaper for one range of a large run.
    Coverage(const trace::RunData& run, const AttributionOptions& options, std::int64_t t0,
             std::int64_t t1, const trace::StopToken& stop = {});

    // An empty or reversed interval gives all zeros.
    StepAttribution attribute(std::int64_t t0, std::int64_t t1) const;
    // One entry per step, same order; identical intervals (a batch) are walked once.
    std::vector<StepAttribution> attribute(std::span<const trace::Step> steps) const;

    // Time (over the whole run) during which any category in `mask` is active.
    std::int64_t active_ns(std::uint8_t mask) const;
    // The same within [t0, t1) only: a windowed coverage's share of a run attributed
    // slice by slice (stored_analysis.h), whose slices' shares add up to the whole.
    std::int64_t active_ns(std::uint8_t mask, std::int64_t t0, std::int64_t t1) const;

    int driving_lane() const { return driving_lane_; }
    // Whole-run coverages built in this process so far (windowed ones not counted):
    // lets a test check that opening a run in the GUI builds exactly one.
    static std::uint64_t whole_run_builds();
    std::size_t segment_count() const { return starts_.size(); }

  private:
    // fn(mask, length) for each piece of [t0, t1) between segment starts, in order.
    template <typename Fn>
    void for_each_piece(std::int64_t t0, std::int64_t t1, Fn&& fn) const;
    void build(const trace::RunData& run, const AttributionOptions& options,
               std::optional<std::pair<std::int64_t, std::int64_t>> window);

    std::vector<std::int64_t> starts_;  // segment i covers [starts_[i], starts_[i + 1])
    std::vector<std::uint8_t> masks_;   // the last segment's mask is 0 and runs on forever
    int driving_lane_ = -1;
    trace::StopToken stop_;
};

inline constexpr std::uint8_t category_bit(Category c) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(c));
}

}  // namespace tokenscope::analysis
