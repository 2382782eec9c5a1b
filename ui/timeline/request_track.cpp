#include "request_track.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "analysis/join/slow_tokens.h"
#include "analysis/join/token_iterations.h"

namespace tokenscope::ui {

RequestTrack::RequestTrack(const trace::RunData& run) {
    if (!analysis::is_joined_run(run)) return;
    itl_ = analysis::token_itl_ns(run);
    links_ = analysis::token_iterations(run);
    pack(run);
    std::vector<std::int64_t> gaps;
    for (std::int64_t v : itl_)
        if (v >= 0) gaps.push_back(v);
    if (!gaps.empty()) {
        auto mid = gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2);
        std::nth_element(gaps.begin(), mid, gaps.end());
        median_itl_ = *mid;
    }
}

// Greedy interval packing by request span: a request takes the first sub-row that is
// free when it starts; with all rows busy, the one freed earliest (they then overlap,
// drawn in start order).
void RequestTrack::pack(const trace::RunData& run) {
    struct Span {
        std::int64_t start = std::numeric_limits<std::int64_t>::max();
        std::int64_t end = std::numeric_limits<std::int64_t>::min();
        int slot = 0;
    };
    std::unordered_map<std::int64_t, Span> spans;
    for (const auto& s : run.steps) {
        if (s.is_iteration() || s.request == 0) continue;
        Span& sp = spans[s.request];
        sp.start = std::min(sp.start, s.start_ns);
        sp.end = std::max(sp.end, s.end_ns);
    }
    std::vector<Span*> order;
    for (auto& [id, sp] : spans) order.push_back(&sp);
    std::stable_sort(order.begin(), order.end(),
                     [](const Span* a, const Span* b) { return a->start < b->start; });
    std::vector<std::int64_t> free_at;
    for (Span* sp : order) {
        auto it = std::find_if(free_at.begin(), free_at.end(),
                               [&](std::int64_t t) { return t <= sp->start; });
        if (it == free_at.end() && free_at.size() < kMaxSlots) it = free_at.insert(it, sp->end);
        if (it == free_at.end()) it = std::min_element(free_at.begin(), free_at.end());
        *it = std::max(*it, sp->end);
        sp->slot = static_cast<int>(it - free_at.begin());
    }
    slots_ = std::max<int>(1, static_cast<int>(free_at.size()));
    slot_.assign(run.steps.size(), -1);
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const auto& s = run.steps[i];
        if (!s.is_iteration() && s.request != 0)
            slot_[i] = static_cast<std::int8_t>(spans[s.request].slot);
    }
}

}  // namespace tokenscope::ui
