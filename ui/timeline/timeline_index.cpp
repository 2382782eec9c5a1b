#include "timeline_index.h"

#include <algorithm>
#include <limits>

namespace tokenscope::ui {
namespace {

// Running maximum of end times sampled every kBlock entries: monotone, so the
// first block that can reach past t0 is found by binary search even when
// spans nest or overlap.
template <typename EndOf>
std::vector<std::int64_t> block_maxima(std::size_t count, EndOf end_of) {
    std::vector<std::int64_t> out;
    out.reserve(count / TimelineIndex::kBlock + 1);
    std::int64_t running = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < count; ++i) {
        running = std::max(running, end_of(i));
        if (i % TimelineIndex::kBlock == TimelineIndex::kBlock - 1 || i + 1 == count)
            out.push_back(running);
    }
    return out;
}

// First offset whose block may hold something ending after t0.
std::size_t first_block_offset(const std::vector<std::int64_t>& maxima, std::int64_t t0) {
    auto it = std::upper_bound(maxima.begin(), maxima.end(), t0);
    return static_cast<std::size_t>(it - maxima.begin()) * TimelineIndex::kBlock;
}

}  // namespace

TimelineIndex::TimelineIndex(const trace::RunData& run)
    : run_(&run), lanes_(run.lanes.size()), requests_(run) {
    index_activities();
    index_counters();
    // A run whose activities stayed in its file (ActivityWindow reads what is shown)
    // spans what its stored totals say.
    if (run.in_file)
        for (const auto& kind : run.in_file->totals.cells)
            for (const auto& cell : kind)
                if (cell.count > 0) {
                    min_ns_ = std::min(min_ns_, cell.first_start_ns);
                    max_ns_ = std::max(max_ns_, cell.last_end_ns);
                }
    index_steps();
    if (min_ns_ >= max_ns_) max_ns_ = min_ns_ + 1;
}

void TimelineIndex::index_activities() {
    const auto& acts = run_->activities;
    min_ns_ = std::numeric_limits<std::int64_t>::max();
    max_ns_ = std::numeric_limits<std::int64_t>::min();
    std::size_t i = 0;
    while (i < acts.size()) {
        const std::size_t lane = acts[i].lane;
        std::size_t j = i;
        std::vector<std::int64_t> open_ends;  // ends of the spans enclosing the current one
        int depth_max = 0;
        while (j < acts.size() && acts[j].lane == lane) {
            while (!open_ends.empty() && open_ends.back() <= acts[j].start_ns) open_ends.pop_back();
            depth_max = std::max(depth_max, static_cast<int>(open_ends.size()));
            open_ends.push_back(acts[j].end_ns);
            min_ns_ = std::min(min_ns_, acts[j].start_ns);
            max_ns_ = std::max(max_ns_, acts[j].end_ns);
            ++j;
        }
        if (lane < lanes_.size()) {
            auto& li = lanes_[lane];
            li.acts = {i, j};
            li.max_depth = depth_max;
            li.block_max_end =
                block_maxima(j - i, [&](std::size_t k) { return acts[i + k].end_ns; });
            if (depth_max == 0)
                li.lod = std::make_shared<const analysis::TimelineLod>(
                    std::span<const trace::Activity>(acts.data() + i, j - i));
        }
        i = j;
    }
}

void TimelineIndex::index_counters() {
    const auto& cs = run_->counters;
    std::size_t i = 0;
    while (i < cs.size()) {
        const std::size_t lane = cs[i].lane;
        std::size_t j = i;
        double top = 0.0;
        while (j < cs.size() && cs[j].lane == lane) {
            top = std::max(top, cs[j].value);
            min_ns_ = std::min(min_ns_, cs[j].time_ns);
            max_ns_ = std::max(max_ns_, cs[j].time_ns);
            ++j;
        }
        if (lane < lanes_.size()) {
            lanes_[lane].counters = {i, j};
            lanes_[lane].counter_max = top;
        }
        i = j;
    }
}

void TimelineIndex::index_steps() {
    const auto& steps = run_->steps;
    step_order_.resize(steps.size());
    for (std::uint32_t k = 0; k < steps.size(); ++k) step_order_[k] = k;
    std::stable_sort(step_order_.begin(), step_order_.end(), [&](std::uint32_t a, std::uint32_t b) {
        return steps[a].start_ns < steps[b].start_ns;
    });
    step_block_max_end_ = block_maxima(step_order_.size(),
                                       [&](std::size_t k) { return steps[step_order_[k]].end_ns; });
    for (const auto& s : steps) {
        min_ns_ = std::min(min_ns_, s.start_ns);
        max_ns_ = std::max(max_ns_, s.end_ns);
    }
    if (min_ns_ == std::numeric_limits<std::int64_t>::max()) min_ns_ = max_ns_ = 0;
}

TimelineIndex::Range TimelineIndex::visible(std::size_t lane, std::int64_t t0,
                                            std::int64_t t1) const {
    const auto& li = lanes_[lane];
    const auto& acts = run_->activities;
    const std::size_t first = li.acts.begin + first_block_offset(li.block_max_end, t0);
    if (first >= li.acts.end) return {li.acts.end, li.acts.end};
    auto stop =
        std::lower_bound(acts.begin() + static_cast<std::ptrdiff_t>(first),
                         acts.begin() + static_cast<std::ptrdiff_t>(li.acts.end), t1,
                         [](const trace::Activity& a, std::int64_t t) { return a.start_ns < t; });
    return {first, static_cast<std::size_t>(stop - acts.begin())};
}

void TimelineIndex::for_each_visible(std::size_t lane, std::int64_t t0, std::int64_t t1,
                                     const std::function<void(std::size_t, int)>& fn) const {
    const auto& acts = run_->activities;
    const Range r = visible(lane, t0, t1);
    std::vector<std::int64_t> open_ends;
    for (std::size_t i = r.begin; i < r.end; ++i) {
        const auto& a = acts[i];
        while (!open_ends.empty() && open_ends.back() <= a.start_ns) open_ends.pop_back();
        const int depth = static_cast<int>(open_ends.size());
        open_ends.push_back(a.end_ns);
        // Zero-length markers at t0 are visible too.
        if (a.end_ns > t0 || (a.end_ns == a.start_ns && a.start_ns >= t0)) fn(i, depth);
    }
}

TimelineIndex::Range TimelineIndex::visible_counters(std::size_t lane, std::int64_t t0,
                                                     std::int64_t t1) const {
    const Range all = lanes_[lane].counters;
    const auto& cs = run_->counters;
    auto by_time = [](const trace::CounterSample& c, std::int64_t t) { return c.time_ns < t; };
    auto b = std::lower_bound(cs.begin() + static_cast<std::ptrdiff_t>(all.begin),
                              cs.begin() + static_cast<std::ptrdiff_t>(all.end), t0, by_time);
    auto e = std::lower_bound(b, cs.begin() + static_cast<std::ptrdiff_t>(all.end), t1, by_time);
    // One sample either side, so the line runs to the window's edges.
    std::size_t bi = static_cast<std::size_t>(b - cs.begin());
    std::size_t ei = static_cast<std::size_t>(e - cs.begin());
    if (bi > all.begin) --bi;
    if (ei < all.end) ++ei;
    return {bi, ei};
}

TimelineIndex::Range TimelineIndex::visible_steps(std::int64_t t0, std::int64_t t1) const {
    const auto& steps = run_->steps;
    const std::size_t first = first_block_offset(step_block_max_end_, t0);
    if (first >= step_order_.size()) return {step_order_.size(), step_order_.size()};
    auto stop = std::lower_bound(
        step_order_.begin() + static_cast<std::ptrdiff_t>(first), step_order_.end(), t1,
        [&](std::uint32_t k, std::int64_t t) { return steps[k].start_ns < t; });
    return {first, static_cast<std::size_t>(stop - step_order_.begin())};
}

std::size_t TimelineIndex::correlated(std::size_t activity, std::int64_t window_ns) const {
    const auto found = correlated_all(activity, window_ns, 1);
    return found.empty() ? SIZE_MAX : found.front();
}

std::vector<std::size_t> TimelineIndex::correlated_all(std::size_t activity, std::int64_t window_ns,
                                                       std::size_t limit) const {
    std::vector<std::size_t> found;
    const auto& acts = run_->activities;
    const auto& a = acts[activity];
    if (a.correlation == 0 || limit == 0) return found;
    const bool is_host = a.kind == trace::ActivityKind::Api;
    // Work starts after the call that launched it; search forward from a call, back from work.
    const std::int64_t t0 = is_host ? a.start_ns : a.start_ns - window_ns;
    const std::int64_t t1 = is_host ? a.start_ns + window_ns : a.start_ns + 1;
    for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
        const bool host_lane = run_->lanes[lane].kind == trace::LaneKind::CpuThread;
        if (host_lane == is_host || lane == a.lane) continue;
        const Range r = visible(lane, t0, t1);
        for (std::size_t i = r.begin; i < r.end; ++i) {
            if (acts[i].correlation != a.correlation || i == activity) continue;
            found.push_back(i);
            if (found.size() == limit) return found;
        }
    }
    return found;
}

}  // namespace tokenscope::ui
