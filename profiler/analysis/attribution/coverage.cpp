#include "coverage.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <unordered_map>

#include "category_intervals.h"
#include "classifier.h"

namespace tokenscope::analysis {
namespace {

std::atomic<std::uint64_t> g_whole_run_builds{0};

}  // namespace

Coverage::Coverage(const trace::RunData& run, const AttributionOptions& options,
                   const trace::StopToken& stop)
    : stop_(stop) {
    g_whole_run_builds.fetch_add(1, std::memory_order_relaxed);
    build(run, options, std::nullopt);
}

Coverage::Coverage(const trace::RunData& run, const AttributionOptions& options, std::int64_t t0,
                   std::int64_t t1, const trace::StopToken& stop)
    : stop_(stop) {
    build(run, options, std::make_pair(t0, t1));
}

std::uint64_t Coverage::whole_run_builds() {
    return g_whole_run_builds.load(std::memory_order_relaxed);
}

// The priority rule: sweeps the categories' unions, and each segment between two
// events gets the set of categories active in it; attribute() then gives the segment's
// time to the highest-priority one (the lowest bit) and counts the rest as hidden.
void Coverage::build(const trace::RunData& run, const AttributionOptions& options,
                     std::optional<std::pair<std::int64_t, std::int64_t>> window) {
    driving_lane_ = resolve_driving_lane(run, options.driving_lane, stop_);
    Classifier cls(run, options, driving_lane_);
    const CategoryUnions unions = category_unions(run, cls, window, stop_);

    // The unions are disjoint and non-touching: each list has at most one event per instant.
    // Every segment starts at an event, and each interval has two: reserved at once, so
    // the 20M segments of a 10M-activity run are not copied and page-faulted again as
    // the vectors double.
    std::size_t bound = 1;
    for (const auto& u : unions) bound += 2 * u.size();
    starts_.reserve(bound);
    masks_.reserve(bound);
    std::array<std::size_t, kActiveCategories> idx{};
    std::array<bool, kActiveCategories> inside{};
    std::uint8_t mask = 0;
    constexpr auto kNone = std::numeric_limits<std::int64_t>::max();
    auto next_event = [&](std::size_t c) {
        const auto& v = unions[c];
        if (idx[c] >= v.size()) return kNone;
        return inside[c] ? v[idx[c]].end : v[idx[c]].start;
    };
    for (std::size_t events = 1;; ++events) {
        if (events % trace::kStopCheckEvery == 0) stop_.throw_if_stopped();
        std::int64_t t = kNone;
        for (std::size_t c = 0; c < kActiveCategories; ++c) t = std::min(t, next_event(c));
        if (t == kNone) break;
        for (std::size_t c = 0; c < kActiveCategories; ++c) {
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
template <typename Fn>
void Coverage::for_each_piece(std::int64_t t0, std::int64_t t1, Fn&& fn) const {
    auto i = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), t0) -
                                      starts_.begin());
    std::uint8_t m = i > 0 ? masks_[i - 1] : 0;
    for (std::int64_t pos = t0; pos < t1;) {
        const std::int64_t end = i < starts_.size() ? std::min(starts_[i], t1) : t1;
        fn(m, end - pos);
        pos = end;
        if (i < starts_.size()) m = masks_[i++];
    }
}

StepAttribution Coverage::attribute(std::int64_t t0, std::int64_t t1) const {
    StepAttribution r;
    r.start_ns = t0;
    r.end_ns = t1;
    for_each_piece(t0, t1, [&r](std::uint8_t m, std::int64_t len) {
        if (m == 0) {
            r.assigned[static_cast<std::size_t>(Category::Scheduling)] += len;
            return;
        }
        r.assigned[static_cast<std::size_t>(std::countr_zero(m))] += len;
        for (unsigned rest = m & (m - 1u); rest != 0; rest &= rest - 1u)
            r.hidden[static_cast<std::size_t>(std::countr_zero(rest))] += len;
    });
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

std::int64_t Coverage::active_ns(std::uint8_t mask, std::int64_t t0, std::int64_t t1) const {
    std::int64_t total = 0;
    for_each_piece(t0, t1, [&](std::uint8_t m, std::int64_t len) {
        if (m & mask) total += len;
    });
    return total;
}

}  // namespace tokenscope::analysis
