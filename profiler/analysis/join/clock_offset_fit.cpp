#include "clock_offset_fit.h"

#include <algorithm>
#include <limits>

namespace tokenscope::analysis {
namespace {

using Times = std::vector<std::int64_t>;
constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();

// The last index whose end is <= x, given j is that index for an earlier x (or -1):
// galloping forward, so a walk over increasing x costs O(1) per step when it moves
// an iteration or two, and O(log) when it jumps.
std::ptrdiff_t advance(const Times& ends, std::ptrdiff_t j, std::int64_t x) {
    const auto n = static_cast<std::ptrdiff_t>(ends.size());
    // Most moves are an iteration or two: a short walk before galloping.
    for (int k = 0; k < 4; ++k) {
        if (j + 1 >= n || ends[j + 1] > x) return j;
        ++j;
    }
    std::ptrdiff_t lo = j + 1;
    if (lo >= n || ends[lo] > x) return j;
    std::ptrdiff_t step = 1;
    while (lo + step < n && ends[lo + step] <= x) {
        lo += step;
        step *= 2;
    }
    auto last = ends.begin() + std::min(lo + step, n);
    return std::upper_bound(ends.begin() + lo + 1, last, x) - ends.begin() - 1;
}

std::int64_t capped_lag(const Times& ends, std::ptrdiff_t j, std::int64_t x, std::int64_t cap) {
    return j < 0 ? cap : std::min(x - ends[j], cap);
}

std::int64_t median_gap(const Times& ends) {
    Times gaps;
    gaps.reserve(ends.size());
    for (std::size_t i = 1; i < ends.size(); ++i)
        if (ends[i] > ends[i - 1]) gaps.push_back(ends[i] - ends[i - 1]);
    if (gaps.empty()) return 0;
    auto mid = gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2);
    std::nth_element(gaps.begin(), mid, gaps.end());
    return *mid;
}

// Every `stride`-th element, so at most `limit` remain.
Times thin(const Times& v, std::size_t limit) {
    if (v.size() <= limit) return v;
    Times out;
    out.reserve(limit);
    const double stride = static_cast<double>(v.size()) / static_cast<double>(limit);
    for (std::size_t k = 0; k < limit; ++k)
        out.push_back(v[static_cast<std::size_t>(static_cast<double>(k) * stride)]);
    return out;
}

// thin(), plus the first and last `edge` elements whole: they tell a shift by a whole
// iteration on a regular engine (see Window).
Times thin_keeping_edges(const Times& v, std::size_t limit, std::size_t edge) {
    if (v.size() <= limit + 2 * edge) return v;
    Times out(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(edge));
    const Times middle = thin(Times(v.begin() + static_cast<std::ptrdiff_t>(edge),
                                    v.end() - static_cast<std::ptrdiff_t>(edge)),
                              limit);
    out.insert(out.end(), middle.begin(), middle.end());
    out.insert(out.end(), v.end() - static_cast<std::ptrdiff_t>(edge), v.end());
    return out;
}

// Total capped lag of sorted emissions at offset d; stops early past `bound`.
std::int64_t total_lag(const Times& ends, const Times& emissions, std::int64_t d, std::int64_t cap,
                       std::int64_t bound = kNever) {
    std::int64_t total = 0;
    std::ptrdiff_t j = -1;
    for (std::int64_t e : emissions) {
        j = advance(ends, j, e + d);
        total += capped_lag(ends, j, e + d, cap);
        if (total >= bound) break;
    }
    return total;
}

struct Scored {
    std::int64_t offset = 0;
    std::int64_t cost = 0;
};

// Keeps the `keep` lowest costs, sorted; returns the bound a newcomer must beat.
std::int64_t keep_best(std::vector<Scored>& best, Scored s, std::size_t keep) {
    auto at = std::upper_bound(best.begin(), best.end(), s.cost,
                               [](std::int64_t c, const Scored& b) { return c < b.cost; });
    best.insert(at, s);
    if (best.size() > keep) best.pop_back();
    return best.size() == keep ? best.back().cost : kNever;
}

// What a candidate offset is scored on: emissions after an anchor, about one per
// `step` (relative to it), and the client's first and last few emissions. On an
// engine whose iterations are as regular as the client's hop is noisy, a shift by a
// whole iteration fits the neighbours as well; the edges tell it (a shift that puts
// the client's first tokens before the trace's first iteration costs the cap).
struct Window {
    std::int64_t anchor = 0;
    Times after;  // relative to the anchor, increasing
    Times edges;  // absolute client times
};

Window anchor_window(const Times& em, std::size_t p, std::int64_t step) {
    constexpr int kAfter = 24;
    constexpr std::size_t kEdge = 4;
    Window w;
    w.anchor = em[p];
    auto prev = em.begin() + static_cast<std::ptrdiff_t>(p);
    for (int k = 1; k <= kAfter; ++k) {
        auto q = std::lower_bound(prev + 1, em.end(), em[p] + k * step);
        if (q == em.end()) break;
        w.after.push_back(*q - em[p]);
        prev = q;
    }
    for (std::size_t k = 0; k < std::min(kEdge, em.size()); ++k) {
        w.edges.push_back(em[k]);
        w.edges.push_back(em[em.size() - 1 - k]);
    }
    return w;
}

// The window's total capped lag at offset d, stopping once past `bound`; j is the last
// end at or before anchor + d (or -1).
std::int64_t window_cost(const ClockOffsetFitInput& in, const Window& w, std::int64_t d,
                         std::ptrdiff_t j, std::int64_t bound) {
    const Times& ends = in.ends;
    std::int64_t cost = capped_lag(ends, j, w.anchor + d, in.cap_ns);
    for (std::int64_t r : w.after) {
        j = advance(ends, j, w.anchor + d + r);
        cost += capped_lag(ends, j, w.anchor + d + r, in.cap_ns);
        if (cost >= bound) return cost;
    }
    for (std::int64_t e : w.edges) {
        const auto k = std::upper_bound(ends.begin(), ends.end(), e + d) - ends.begin() - 1;
        cost += capped_lag(ends, k, e + d, in.cap_ns);
        if (cost >= bound) return cost;
    }
    return cost;
}

// The best few candidates of one anchor: every iteration end in range aligned with
// it, scored on its window. Only candidates beating `bound` (the best offset so far,
// scored on this window) are kept: the bound prunes most after one or two lags.
std::vector<Scored> anchor_candidates(const ClockOffsetFitInput& in, const Window& w,
                                      std::int64_t bound) {
    constexpr std::size_t kKeep = 3;
    const Times& ends = in.ends;
    auto first = std::lower_bound(ends.begin(), ends.end(), w.anchor + in.min_offset_ns);
    auto last = std::upper_bound(ends.begin(), ends.end(), w.anchor + in.max_offset_ns);
    std::vector<Scored> best;
    for (auto it = first; it != last; ++it) {
        if (it != first && *it == *(it - 1)) continue;
        const std::int64_t d = *it - w.anchor;
        const std::int64_t cost = window_cost(in, w, d, it - ends.begin(), bound);
        if (cost < bound) bound = std::min(bound, keep_best(best, {d, cost}, kKeep));
    }
    return best;
}

// Stages 1 and 2: anchors at evenly spaced times of the client (a server trace that
// covers a slice of the benchmark still holds some); each anchor's candidates scored
// on the whole client's sample, the best so far bounding the next anchor's search.
std::int64_t coarse_fit(const ClockOffsetFitInput& in, std::int64_t gap,
                        const trace::StopToken& stop) {
    const Times& em = in.emissions;
    const Times& ends = in.ends;
    constexpr std::size_t kBudget = 4'000'000;
    const std::size_t anchors = std::clamp<std::size_t>(kBudget / ends.size(), 16, 256);
    // Not a multiple of the gap: a window stepping in whole gaps could fit a wrong
    // alignment as well as the right one on a regular engine.
    const std::int64_t step = std::max<std::int64_t>(1, gap * 137 / 100);
    const double span = static_cast<double>(em.back() - em.front());
    const Times whole = thin_keeping_edges(em, 4096, 32);
    Scored best{in.min_offset_ns, kNever};
    std::size_t last_p = em.size();
    for (std::size_t a = 0; a < anchors; ++a) {
        stop.throw_if_stopped();
        const auto target =
            em.front() + static_cast<std::int64_t>(span * (2.0 * static_cast<double>(a) + 1.0) /
                                                   (2.0 * static_cast<double>(anchors)));
        const auto p =
            static_cast<std::size_t>(std::lower_bound(em.begin(), em.end(), target) - em.begin());
        if (p >= em.size() || p == last_p) continue;
        last_p = p;
        const Window w = anchor_window(em, p, step);
        std::int64_t bound = kNever;
        if (best.cost != kNever) {
            const auto j =
                std::upper_bound(ends.begin(), ends.end(), w.anchor + best.offset) - ends.begin();
            bound = window_cost(in, w, best.offset, j - 1, kNever) + 1;
        }
        for (const Scored& c : anchor_candidates(in, w, bound)) {
            const std::int64_t cost = total_lag(ends, whole, c.offset, in.cap_ns, best.cost);
            if (cost < best.cost) best = {c.offset, cost};
        }
    }
    return best.offset;
}

struct SweepEvent {
    std::int64_t offset;
    std::int64_t value;  // change of the total at this offset (a reset: minus the lag)
    std::int32_t slope;  // change of the number of lags growing with the offset
};

// One emission's events over [lo, hi]: its lag grows with slope 1 until the cap, and
// drops to 0 where emission + d reaches the next iteration end.
void emission_events(const Times& ends, std::int64_t e, std::ptrdiff_t j, std::int64_t lo,
                     std::int64_t hi, std::int64_t cap, std::vector<SweepEvent>& out) {
    const std::int64_t lag0 = capped_lag(ends, j, e + lo, cap);
    bool capped = lag0 >= cap;
    std::int64_t reach_cap = capped ? kNever : lo + (cap - lag0);
    for (auto k = static_cast<std::size_t>(j + 1); k < ends.size() && ends[k] - e <= hi; ++k) {
        const std::int64_t reset = ends[k] - e;
        if (reach_cap <= reset) {
            out.push_back({reach_cap, 0, -1});
            capped = true;
        }
        const std::int64_t before = capped || k == 0 ? cap : std::min(ends[k] - ends[k - 1], cap);
        out.push_back({reset, -before, capped ? 1 : 0});
        capped = false;
        reach_cap = reset + cap;
    }
    if (reach_cap <= hi) out.push_back({reach_cap, 0, -1});
}

// Stage 3: the exact minimum of the total capped lag over [lo, hi] (a plane sweep of
// each emission's piecewise-linear lag). Returns the lowest offset reaching it.
Scored sweep_minimum(const ClockOffsetFitInput& in, const Times& em, std::int64_t lo,
                     std::int64_t hi, const trace::StopToken& stop) {
    const Times& ends = in.ends;
    std::vector<SweepEvent> events;
    events.reserve(em.size() * 4);
    std::int64_t value = 0, slope = 0;
    std::ptrdiff_t j = -1;
    trace::for_each_stoppable(em, stop, [&](std::int64_t e) {
        j = advance(ends, j, e + lo);
        const std::int64_t lag0 = capped_lag(ends, j, e + lo, in.cap_ns);
        value += lag0;
        slope += lag0 < in.cap_ns ? 1 : 0;
        emission_events(ends, e, j, lo, hi, in.cap_ns, events);
    });
    std::sort(events.begin(), events.end(),
              [](const SweepEvent& a, const SweepEvent& b) { return a.offset < b.offset; });
    Scored best{lo, value};
    std::int64_t at = lo;
    for (std::size_t i = 0; i < events.size();) {
        const std::int64_t d = events[i].offset;
        value += slope * (d - at);
        at = d;
        for (; i < events.size() && events[i].offset == d; ++i) {
            value += events[i].value;
            slope += events[i].slope;
        }
        if (value < best.cost) best = {d, value};
    }
    return best;
}

}  // namespace

ClockOffsetFit evaluate_clock_offset(const ClockOffsetFitInput& in, std::int64_t offset_ns) {
    ClockOffsetFit fit;
    fit.offset_ns = offset_ns;
    fit.median_gap_ns = median_gap(in.ends);
    if (in.emissions.empty() || in.ends.empty()) return fit;
    Times lags;
    lags.reserve(in.emissions.size());
    std::ptrdiff_t j = -1;
    for (std::int64_t e : in.emissions) {
        j = advance(in.ends, j, e + offset_ns);
        const std::int64_t lag = j < 0 ? kNever : e + offset_ns - in.ends[j];
        fit.total_lag_ns += static_cast<double>(std::min(lag, in.cap_ns));
        if (lag <= in.cap_ns) lags.push_back(lag);
    }
    fit.matched_share = static_cast<double>(lags.size()) / static_cast<double>(in.emissions.size());
    if (!lags.empty()) {
        auto mid = lags.begin() + static_cast<std::ptrdiff_t>(lags.size() / 2);
        std::nth_element(lags.begin(), mid, lags.end());
        fit.residual_ns = *mid;
    }
    return fit;
}

ClockOffsetFit fit_clock_offset(const ClockOffsetFitInput& in, const trace::StopToken& stop) {
    if (in.emissions.empty() || in.ends.empty() || in.min_offset_ns > in.max_offset_ns)
        return evaluate_clock_offset(in, in.min_offset_ns);
    const std::int64_t gap = std::max<std::int64_t>(median_gap(in.ends), 1);
    Scored best{coarse_fit(in, gap, stop), 0};
    // Stage 3, re-centred while the minimum sits on the window's edge (the winning
    // anchor's own hop may have been long).
    const Times sample = thin(in.emissions, 65536);
    const std::int64_t half =
        std::clamp<std::int64_t>(gap / 2, std::min<std::int64_t>(50'000, in.cap_ns), in.cap_ns);
    for (int round = 0; round < 4; ++round) {
        const std::int64_t lo = std::max(in.min_offset_ns, best.offset - half);
        const std::int64_t hi = std::min(in.max_offset_ns, best.offset + half);
        const Scored s = sweep_minimum(in, sample, lo, hi, stop);
        best.offset = s.offset;
        if (s.offset != lo || lo == in.min_offset_ns) break;
    }
    ClockOffsetFit fit = evaluate_clock_offset(in, best.offset);
    fit.median_gap_ns = gap;
    return fit;
}

}  // namespace tokenscope::analysis
