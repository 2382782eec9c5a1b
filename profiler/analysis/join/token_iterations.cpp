#include "token_iterations.h"

#include <algorithm>

namespace tokenscope::analysis {

namespace {

// The first position after `pos` whose end is past `emitted`, given every end before
// `pos` is not: galloping, so a request's next token (an iteration or two on) costs O(1).
std::size_t upper_from(const std::vector<std::int64_t>& ends, std::size_t pos,
                       std::int64_t emitted) {
    const std::size_t n = ends.size();
    if (pos >= n || ends[pos] > emitted) return pos;
    std::size_t step = 1;
    while (pos + step < n && ends[pos + step] <= emitted) {
        pos += step;
        step *= 2;
    }
    const auto first = ends.begin() + static_cast<std::ptrdiff_t>(pos + 1);
    const auto last = ends.begin() + static_cast<std::ptrdiff_t>(std::min(pos + step, n));
    return static_cast<std::size_t>(std::upper_bound(first, last, emitted) - ends.begin());
}

}  // namespace

std::vector<std::int32_t> token_iterations(const trace::RunData& run,
                                           const TokenIterationOptions& options) {
    const auto& steps = run.steps;
    std::vector<std::int32_t> links(steps.size(), -1);
    std::vector<std::int32_t> iterations;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].is_iteration()) iterations.push_back(static_cast<std::int32_t>(i));
    if (iterations.empty()) return links;
    // Ties on the end keep the later-listed iteration: with several ranks each rank's
    // copy of an iteration ends at nearly the same time and any one of them is right.
    std::stable_sort(iterations.begin(), iterations.end(), [&](std::int32_t a, std::int32_t b) {
        return steps[a].end_ns < steps[b].end_ns;
    });
    // The ends side by side: millions of tokens search them, and a search through
    // run.steps would miss the cache at every probe.
    std::vector<std::int64_t> ends(iterations.size());
    for (std::size_t k = 0; k < iterations.size(); ++k) ends[k] = steps[iterations[k]].end_ns;
    std::size_t pos = 0;  // iterations ending at or before the previous token's emission
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (!steps[i].is_token()) continue;
        const std::int64_t emitted = steps[i].end_ns;
        pos = pos > 0 && ends[pos - 1] > emitted
                  ? static_cast<std::size_t>(std::upper_bound(ends.begin(), ends.end(), emitted) -
                                             ends.begin())
                  : upper_from(ends, pos, emitted);
        if (pos == 0) continue;
        if (emitted - ends[pos - 1] <= options.max_lag_ns) links[i] = iterations[pos - 1];
    }
    return links;
}

double matched_token_share(const trace::RunData& run, const std::vector<std::int32_t>& links) {
    std::size_t tokens = 0, matched = 0;
    for (std::size_t i = 0; i < run.steps.size() && i < links.size(); ++i) {
        if (!run.steps[i].is_token()) continue;
        ++tokens;
        if (links[i] >= 0) ++matched;
    }
    return tokens == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(tokens);
}

}  // namespace tokenscope::analysis
