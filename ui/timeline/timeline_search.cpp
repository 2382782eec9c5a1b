#include "timeline_search.h"

#include <algorithm>

namespace tokenscope::ui {

std::size_t TimelineSearch::set_query(const trace::RunData* run, const QString& text) {
    run_ = run;
    matches_.clear();
    current_ = static_cast<std::size_t>(-1);
    if (run == nullptr || text.trimmed().isEmpty()) return 0;
    const QString needle = text.trimmed();
    std::vector<bool> wanted(run->strings.size(), false);
    bool any = false;
    for (std::uint32_t id = 1; id < run->strings.size(); ++id) {
        const auto s = run->strings.str(id);
        if (QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()))
                .contains(needle, Qt::CaseInsensitive))
            wanted[id] = any = true;
    }
    if (!any) return 0;
    const auto& acts = run->activities;
    for (std::size_t i = 0; i < acts.size() && matches_.size() < kMaxMatches; ++i)
        if (acts[i].name < wanted.size() && wanted[acts[i].name])
            matches_.push_back(static_cast<std::uint32_t>(i));
    // Matches step through time across all lanes (next/previous on screen), so by start
    // alone, not trace::activity_order's lane grouping.
    std::stable_sort(matches_.begin(), matches_.end(), [&](std::uint32_t a, std::uint32_t b) {
        return acts[a].start_ns < acts[b].start_ns;
    });
    return matches_.size();
}

std::size_t TimelineSearch::next() {
    if (matches_.empty()) return static_cast<std::size_t>(-1);
    current_ = current_ + 1 >= matches_.size() ? 0 : current_ + 1;
    return matches_[current_];
}

std::size_t TimelineSearch::seek(std::int64_t t) {
    if (matches_.empty()) return static_cast<std::size_t>(-1);
    const auto& acts = run_->activities;
    const auto it = std::lower_bound(
        matches_.begin(), matches_.end(), t,
        [&](std::uint32_t i, std::int64_t time) { return acts[i].start_ns < time; });
    current_ = it == matches_.end() ? 0 : static_cast<std::size_t>(it - matches_.begin());
    return matches_[current_];
}

std::size_t TimelineSearch::previous() {
    if (matches_.empty()) return static_cast<std::size_t>(-1);
    current_ = (current_ == 0 || current_ >= matches_.size()) ? matches_.size() - 1 : current_ - 1;
    return matches_[current_];
}

}  // namespace tokenscope::ui
