#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "trace/activity.h"

namespace tokenscope::analysis {

// One thing to draw: a real span (count 1: the activity at `first`) or a folded
// "N events" block (count N > 1) standing for activities first .. first+N-1, all
// inside [start_ns, end_ns). On a nested lane (NestedLod) a block's activities are the
// row `depth`'s, not all of first .. first+N-1, and `first` is the first of them.
struct LodItem {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::size_t first = 0;
    std::size_t count = 1;
    int depth = 0;

    bool folded() const { return count > 1; }
    bool operator==(const LodItem&) const = default;
};

// Timeline level of detail for one lane (Tracy's zone folding, without Qt).
// Spans at least min_px wide are drawn as themselves; runs of narrower spans,
// each starting within min_px of the run's end so far, fold into one block.
// Every activity overlapping [t0, t1) is covered by exactly one item. The cost of
// a query is about O(items x log n), not O(n): blocks skip ahead by binary search,
// and two block-max trees (of end times and of durations, one leaf per 16
// activities: about 1.3 bytes per activity each) find long spans that started
// before t0 and the next wide span without walking.
class TimelineLod {
  public:
    // `lane`: one lane's activities sorted by start. Only a view is kept: the
    // activities must outlive this object and stay unchanged.
    explicit TimelineLod(std::span<const trace::Activity> lane);

    // Throws std::invalid_argument when ns_per_px is not positive.
    std::vector<LodItem> items(std::int64_t t0, std::int64_t t1, double ns_per_px,
                               double min_px = 3.0) const;

    std::size_t size() const { return lane_.size(); }

    // The fold rule, shared with NestedLod: a span is drawn itself when its duration is at
    // least this (min_px at ns_per_px, in whole ns), and a narrower span joins a block
    // when it starts less than this after the block's end. Throws std::invalid_argument
    // when ns_per_px is not positive.
    static std::int64_t wide_ns(double ns_per_px, double min_px);

  private:
    static constexpr std::size_t kLeaf = 16;

    std::vector<std::int64_t> build_tree(bool durations) const;
    // First index >= i whose end (or duration) is greater than x; size() when none.
    std::size_t first_greater(const std::vector<std::int64_t>& tree, bool durations, std::size_t i,
                              std::int64_t x) const;
    // Largest end over indices [i, j), i < j.
    std::int64_t max_end(std::size_t i, std::size_t j) const;
    std::int64_t key(std::size_t i, bool durations) const {
        return durations ? lane_[i].duration_ns() : lane_[i].end_ns;
    }
    // First index >= i that starts at or after t.
    std::size_t first_start_at(std::size_t i, std::int64_t t) const;
    // Index one past the last activity of the folded block beginning at `first`.
    std::size_t fold_end(std::size_t first, std::int64_t wide_ns, std::int64_t t1,
                         std::int64_t& block_end) const;

    std::span<const trace::Activity> lane_;
    std::size_t leaves_ = 1;  // power of two >= number of blocks
    std::vector<std::int64_t> end_tree_, duration_tree_;
};

}  // namespace tokenscope::analysis
