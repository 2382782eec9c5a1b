#include "token_iterations.h"

#include <algorithm>

namespace tokenscope::analysis {

namespace {

bool is_token(const trace::Step& s) {
    return !s.is_iteration() && s.request != 0;
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
    for (std::size_t i = 0; i < steps.size(); ++i) {
        if (!is_token(steps[i])) continue;
        const std::int64_t emitted = steps[i].end_ns;
        auto after =
            std::upper_bound(iterations.begin(), iterations.end(), emitted,
                             [&](std::int64_t t, std::int32_t it) { return t < steps[it].end_ns; });
        if (after == iterations.begin()) continue;
        const std::int32_t found = *(after - 1);
        if (emitted - steps[found].end_ns <= options.max_lag_ns) links[i] = found;
    }
    return links;
}

double matched_token_share(const trace::RunData& run, const std::vector<std::int32_t>& links) {
    std::size_t tokens = 0, matched = 0;
    for (std::size_t i = 0; i < run.steps.size() && i < links.size(); ++i) {
        if (!is_token(run.steps[i])) continue;
        ++tokens;
        if (links[i] >= 0) ++matched;
    }
    return tokens == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(tokens);
}

}  // namespace tokenscope::analysis
