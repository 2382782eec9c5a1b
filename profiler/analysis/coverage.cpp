#include "coverage.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "classifier.h"

namespace tokenscope::analysis {
namespace {

using trace::Activity;

// Scheduling has no intervals of its own: it is whatever none of the others cover.
constexpr std::size_t kSwept = kCategoryCount - 1;

struct Interval {
    std::int64_t start, end;
};

// Per category: intervals, plus the offsets where each lane's (sorted, disjoint) run begins.
struct Lists {
    std::array<std::vector<Interval>, kSwept> intervals;
    std::array<std::vector<std::size_t>, kSwept> runs;
};

using Window = std::optional<std::pair<std::int64_t, std::int64_t>>;

bool lane_start_order(const Activity& a, const Activity& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.start_ns < b.start_ns;
}

// Visits activities in (lane, start) order without copying them when already so ordered.
// A sort cannot stop half-way, so `stop` is checked around it and between chunks.
template <typename Fn>
void for_each_in_lane_order(const std::vector<Activity>& acts, const trace::StopToken& stop,
                            Fn&& fn) {
    stop.throw_if_stopped();
    if (std::is_sorted(acts.begin(), acts.end(), lane_start_order)) {
        trace::for_each_stoppable(acts, stop, fn);
        return;
    }
    std::vector<std::uint32_t> order(acts.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return lane_start_order(acts[x], acts[y]); });
    trace::for_each_stoppable(order, stop, [&](std::uint32_t i) { fn(acts[i]); });
}

// One pass: per lane and category, the union of intervals is built on the fly because
// a lane's activities arrive in start order.
Lists collect(const trace::RunData& run, Classifier& cls, Window window,
              const trace::StopToken& stop) {
    Lists lists;
    std::array<std::optional<Interval>, kSwept> open;
    auto flush = [&] {
        for (std::size_t c = 0; c < kSwept; ++c)
            if (open[c]) lists.intervals[c].push_back(*open[c]), open[c].reset();
    };
    bool first = true;
    std::uint16_t lane = 0;
    for_each_in_lane_order(run.activities, stop, [&](const Activity& a) {
        if (first || a.lane != lane) {
            flush();
            for (std::size_t c = 0; c < kSwept; ++c)
                lists.runs[c].push_back(lists.intervals[c].size());
            lane = a.lane;
            first = false;
        }
        if (a.end_ns <= a.start_ns) return;
        if (window && (a.end_ns <= window->first || a.start_ns >= window->second)) return;
        std::uint8_t mask = cls.mask_of(a);
        if (mask == 0) return;
        auto c = static_cast<std::size_t>(std::countr_zero(mask));
        if (open[c] && a.start_ns <= open[c]->end)
            open[c]->end = std::max(open[c]->end, a.end_ns);
        else {
            if (open[c]) lists.intervals[c].push_back(*open[c]);
            open[c] = Interval{a.start_ns, a.end_ns};
        }
    });
    flush();
    return lists;
}

// Merges the sorted per-lane runs pairwise (log2(lanes) rounds), then unions in place.
void merge_runs(std::vector<Interval>& v, std::vector<std::size_t> runs,
                const trace::StopToken& stop) {
    auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
    runs.push_back(v.size());
    while (runs.size() > 2) {
        stop.throw_if_stopped();
        std::vector<std::size_t> next;
        for (std::size_t j = 0; j + 1 < runs.size(); j += 2) {
            next.push_back(runs[j]);
            if (j + 2 < runs.size())
                std::inplace_merge(v.begin() + static_cast<std::ptrdiff_t>(runs[j]),
                                   v.begin() + static_cast<std::ptrdiff_t>(runs[j + 1]),
                                   v.begin() + static_cast<std::ptrdiff_t>(runs[j + 2]), by_start);
        }
        next.push_back(runs.back());
        runs = std::move(next);
    }
    std::size_t out = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (out > 0 && v[i].start <= v[out - 1].end)
            v[out - 1].end = std::max(v[out - 1].end, v[i].end);
        else
            v[out++] = v[i];
    }
    v.resize(out);
    v.shrink_to_fit();
}

}  // namespace

Coverage::Coverage(const trace::RunData& run, const AttributionOptions& options,
                   const trace::StopToken& stop)
    : stop_(stop) {
    build(run, options, std::nullopt);
}

Coverage::Coverage(const trace::RunData& run, const AttributionOptions& options, std::int64_t t0,
                   std::int64_t t1, const trace::StopToken& stop)
    : stop_(stop) {
    build(run, options, std::make_pair(t0, t1));
}

void Coverage::build(const trace::RunData& run, const AttributionOptions& options, Window window) {
    driving_lane_ = resolve_driving_lane(run, options.driving_lane, stop_);
    Classifier cls(run, options, driving_lane_);
    Lists lists = collect(run, cls, window, stop_);
    for (std::size_t c = 0; c < kSwept; ++c) merge_runs(lists.intervals[c], lists.runs[c], stop_);
    stop_.throw_if_stopped();

    // Sweep the disjoint, non-touching unions: each list has at most one event per instant.
    std::array<std::size_t, kSwept> idx{};
    std::array<bool, kSwept> inside{};
    std::uint8_t mask = 0;
    constexpr auto kNone = std::numeric_limits<std::int64_t>::max();
    auto next_event = [&](std::size_t c) {
        const auto& v = lists.intervals[c];
        if (idx[c] >= v.size()) return kNone;
        return inside[c] ? v[idx[c]].end : v[idx[c]].start;
    };
    for (std::size_t events = 1;; ++events) {
        if (events % trace::kStopCheckEvery == 0) stop_.throw_if_stopped();
        std::int64_t t = kNone;
        for (std::size_t c = 0; c < kSwept; ++c) t = std::min(t, next_event(c));
        if (t == kNone) break;
        for (std::size_t c = 0; c < kSwept; ++c) {
            if (next_event(c) != t) continue;
            mask ^= static_cast<std::uint8_t>(1u << c);
            if (inside[c]) ++idx[c];
            inside[c] = !inside[c];
        }
        if (masks_.empty() || masks_.back() != mask) {
            starts_.push_back(t);
            masks_.push_back(mask);
        }
    }
}

StepAttribution Coverage::attribute(std::int64_t t0, std::int64_t t1) const {
    StepAttribution r;
    r.start_ns = t0;
    r.end_ns = t1;
    if (t1 <= t0) return r;
    auto add = [&r](std::uint8_t m, std::int64_t len) {
        if (m == 0) {
            r.assigned[static_cast<std::size_t>(Category::Scheduling)] += len;
            return;
        }
        r.assigned[static_cast<std::size_t>(std::countr_zero(m))] += len;
        for (unsigned rest = m & (m - 1u); rest != 0; rest &= rest - 1u)
            r.hidden[static_cast<std::size_t>(std::countr_zero(rest))] += len;
    };
    std::size_t i = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), t0) -
                                             starts_.begin());
    std::uint8_t m = i > 0 ? masks_[i - 1] : 0;
    for (std::int64_t pos = t0; pos < t1;) {
        std::int64_t end = i < starts_.size() ? std::min(starts_[i], t1) : t1;
        add(m, end - pos);
        pos = end;
        if (i < starts_.size()) m = masks_[i++];
    }
    return r;
}

std::vector<StepAttribution> Coverage::attribute(std::span<const trace::Step> steps) const {
    struct PairHash {
        std::size_t operator()(const std::pair<std::int64_t, std::int64_t>& p) const {
            auto a = static_cast<std::uint64_t>(p.first), b = static_cast<std::uint64_t>(p.second);
            return std::hash<std::uint64_t>()(a * 0x9e3779b97f4a7c15ull ^ b);
        }
    };
    std::unordered_map<std::pair<std::int64_t, std::int64_t>, std::size_t, PairHash> seen;
    std::vector<StepAttribution> out;
    out.reserve(steps.size());
    trace::for_each_stoppable(steps, stop_, [&](const trace::Step& s) {
        auto [it, fresh] = seen.try_emplace({s.start_ns, s.end_ns}, out.size());
        out.push_back(fresh ? attribute(s.start_ns, s.end_ns) : out[it->second]);
    });
    return out;
}

std::int64_t Coverage::active_ns(std::uint8_t mask) const {
    std::int64_t total = 0;
    for (std::size_t i = 0; i + 1 < starts_.size(); ++i)
        if (masks_[i] & mask) total += starts_[i + 1] - starts_[i];
    return total;
}

}  // namespace tokenscope::analysis
