#pragma once

#include <algorithm>
#include <compare>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "activity.h"
#include "stop_token.h"

namespace tokenscope::trace {

// The one order of a run's activities that the views and the analysis rely on: grouped
// by lane, in start order, and at equal starts the longer span first, so an enclosing
// range comes before what it encloses (the timeline's nesting depth). The GUI's loader
// puts every run in it; the attribution and the launch delay walk activities in it.
// (The store and the capture writers keep lanes in start order and equal starts in the
// order they were added, which their round-trip tests pin; a run read back is put in
// this order by the loader, at the cost of one check when it already is.)
inline bool before_on_lane(const Activity& a, const Activity& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
}

inline bool activity_order(const Activity& a, const Activity& b) {
    return a.lane != b.lane ? a.lane < b.lane : before_on_lane(a, b);
}

// The writers' order, which activity_order refines: lane, then start, with nothing said
// of equal starts (a stable sort by it keeps them as added, as the store does).
inline bool starts_before(const Activity& a, const Activity& b) {
    return a.start_ns < b.start_ns;
}

inline bool lane_start_order(const Activity& a, const Activity& b) {
    return a.lane != b.lane ? a.lane < b.lane : starts_before(a, b);
}

inline bool in_activity_order(std::span<const Activity> activities) {
    return std::is_sorted(activities.begin(), activities.end(), activity_order);
}

// Sorts in place (std::sort: a stable sort would need a second copy of a 10M-activity
// run); a no-op, after one linear check, for runs already in order.
inline void sort_activities(std::vector<Activity>& activities) {
    if (!in_activity_order(activities))
        std::sort(activities.begin(), activities.end(), activity_order);
}

// Indices of the activities `keep` accepts, in activity_order (exact ties in index
// order). Bucketed by lane in one counting pass, then each lane sorted only when it is
// not in order already: importers write most lanes in start order, so this is linear
// for them, where one sort of the whole index cost n log n indirect comparisons
// (5% of `breakdown` on a 109 k-event Kineto trace, three sorts).
template <typename Keep>
std::vector<std::uint32_t> activity_order_index(const std::vector<Activity>& acts, Keep&& keep) {
    std::size_t lanes = 0;
    for (const Activity& a : acts)
        if (keep(a)) lanes = std::max<std::size_t>(lanes, std::size_t{a.lane} + 1);
    std::vector<std::uint32_t> first(lanes + 1, 0);
    for (const Activity& a : acts)
        if (keep(a)) ++first[std::size_t{a.lane} + 1];
    std::partial_sum(first.begin(), first.end(), first.begin());
    std::vector<std::uint32_t> order(first.back());
    std::vector<std::uint32_t> next(first.begin(), first.end() - 1);
    for (std::uint32_t i = 0; i < acts.size(); ++i)
        if (keep(acts[i])) order[next[acts[i].lane]++] = i;
    const auto before = [&](std::uint32_t x, std::uint32_t y) {
        return before_on_lane(acts[x], acts[y]);
    };
    // A lane out of order is sorted on a copy of its keys: contiguous keys compare
    // several times faster than indices that reach into the activities.
    struct Key {
        std::int64_t start;
        std::int64_t neg_end;
        std::uint32_t index;
        auto operator<=>(const Key&) const = default;
    };
    std::vector<Key> keys;
    for (std::size_t lane = 0; lane + 1 < first.size(); ++lane) {
        const auto begin = order.begin() + first[lane];
        const auto end = order.begin() + first[lane + 1];
        if (std::is_sorted(begin, end, before)) continue;
        keys.clear();
        for (auto it = begin; it != end; ++it)
            keys.push_back({acts[*it].start_ns, -acts[*it].end_ns, *it});
        std::sort(keys.begin(), keys.end());
        for (std::size_t k = 0; k < keys.size(); ++k) begin[k] = keys[k].index;
    }
    return order;
}

// fn(activity) lane by lane in start order (equal starts in any order, which is all a
// walker over each lane's timeline needs), without a copy when the run is so ordered
// already (runs from the store and the loader are); else through activity_order_index.
// A sort cannot stop half-way, so `stop` is checked around it and between chunks
// (throws Cancelled).
template <typename Fn>
void for_each_in_activity_order(const std::vector<Activity>& acts, const StopToken& stop, Fn&& fn) {
    stop.throw_if_stopped();
    if (std::is_sorted(acts.begin(), acts.end(), lane_start_order)) {
        for_each_stoppable(acts, stop, fn);
        return;
    }
    const std::vector<std::uint32_t> order =
        activity_order_index(acts, [](const Activity&) { return true; });
    stop.throw_if_stopped();
    for_each_stoppable(order, stop, [&](std::uint32_t i) { fn(acts[i]); });
}

}  // namespace tokenscope::trace
