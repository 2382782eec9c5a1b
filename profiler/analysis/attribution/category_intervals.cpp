#include "category_intervals.h"

#include <algorithm>
#include <bit>

#include "trace/activity_order.h"

namespace tokenscope::analysis {
namespace {

using trace::Activity;

// Per category: intervals, plus the offsets where each lane's (sorted, disjoint) run begins.
struct Lists {
    CategoryUnions intervals;
    std::array<std::vector<std::size_t>, kActiveCategories> runs;
};

// Each activity's category bit, in storage order, with the number per category: the
// interval lists are reserved from the counts instead of doubling (which copied and
// page-faulted hundreds of megabytes on a 10M-activity run), and collect() reads the
// masks back instead of classifying twice.
struct Masks {
    std::vector<std::uint8_t> of;
    std::array<std::size_t, kActiveCategories> count{};
};

Masks classify_all(const trace::RunData& run, Classifier& cls, const trace::StopToken& stop) {
    Masks m;
    m.of.resize(run.activities.size());
    trace::for_index_stoppable(run.activities.size(), stop, [&](std::size_t i) {
        const std::uint8_t mask = cls.mask_of(run.activities[i]);
        m.of[i] = mask;
        if (mask != 0) ++m.count[static_cast<std::size_t>(std::countr_zero(mask))];
    });
    return m;
}

// One pass: per lane and category, the union of intervals is built on the fly because
// a lane's activities arrive in start order.
Lists collect(const trace::RunData& run, Classifier& cls,
              std::optional<std::pair<std::int64_t, std::int64_t>> window,
              const trace::StopToken& stop) {
    // A window of a large run (the attribution panel's range) classifies only what
    // falls in it, as it reserves nothing up front.
    const Masks masks = window ? Masks{} : classify_all(run, cls, stop);
    Lists lists;
    for (std::size_t c = 0; c < kActiveCategories; ++c) lists.intervals[c].reserve(masks.count[c]);
    const Activity* const base = run.activities.data();
    std::array<std::optional<Interval>, kActiveCategories> open;
    auto flush = [&] {
        for (std::size_t c = 0; c < kActiveCategories; ++c)
            if (open[c]) lists.intervals[c].push_back(*open[c]), open[c].reset();
    };
    bool first = true;
    std::uint16_t lane = 0;
    trace::for_each_in_activity_order(run.activities, stop, [&](const Activity& a) {
        if (first || a.lane != lane) {
            flush();
            for (std::size_t c = 0; c < kActiveCategories; ++c)
                lists.runs[c].push_back(lists.intervals[c].size());
            lane = a.lane;
            first = false;
        }
        if (a.end_ns <= a.start_ns) return;
        if (window && (a.end_ns <= window->first || a.start_ns >= window->second)) return;
        const std::uint8_t mask =
            window ? cls.mask_of(a) : masks.of[static_cast<std::size_t>(&a - base)];
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
    v.resize(out);  // not shrunk: the unions live only while a Coverage is built
}

}  // namespace

CategoryUnions category_unions(const trace::RunData& run, Classifier& classifier,
                               std::optional<std::pair<std::int64_t, std::int64_t>> window,
                               const trace::StopToken& stop) {
    Lists lists = collect(run, classifier, window, stop);
    for (std::size_t c = 0; c < kActiveCategories; ++c)
        merge_runs(lists.intervals[c], lists.runs[c], stop);
    stop.throw_if_stopped();
    return std::move(lists.intervals);
}

}  // namespace tokenscope::analysis
