#include "slow_tokens.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>

#include "analysis/attribution/coverage.h"
#include "analysis/heatmap/batch_label.h"
#include "analysis/kernel_name.h"

namespace tokenscope::analysis {
namespace {

// The tokens to rank: those with an ITL, of one request when asked, slowest first.
std::vector<std::size_t> ranked_tokens(const trace::RunData& run,
                                       const std::vector<std::int64_t>& itl,
                                       const SlowTokenOptions& options) {
    std::vector<std::size_t> picked;
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        const auto& s = run.steps[i];
        if (!s.is_token() || (options.request && s.request != *options.request)) continue;
        // A request's own list keeps its first token (no ITL) so every token is listed.
        if (itl[i] >= 0 || options.request) picked.push_back(i);
    }
    if (options.request) {
        std::stable_sort(picked.begin(), picked.end(), [&](std::size_t a, std::size_t b) {
            return run.steps[a].index < run.steps[b].index;
        });
        return picked;
    }
    auto slower = [&](std::size_t a, std::size_t b) {
        return itl[a] != itl[b] ? itl[a] > itl[b] : a < b;
    };
    const std::size_t n =
        options.count == 0 ? picked.size() : std::min(options.count, picked.size());
    std::partial_sort(picked.begin(), picked.begin() + static_cast<std::ptrdiff_t>(n), picked.end(),
                      slower);
    picked.resize(n);
    return picked;
}

// Kernel time per name inside each distinct window (tokens of one iteration share
// one), in one pass over the activities: windows sorted by start, so a kernel only
// visits those starting within the longest window's length before it ends.
void add_top_kernels(const trace::RunData& run, std::vector<SlowToken>& tokens,
                     const SlowTokenOptions& options, const trace::StopToken& stop) {
    using IterationSpan = std::pair<std::int64_t, std::int64_t>;
    std::vector<IterationSpan> windows;
    for (const auto& t : tokens)
        if (t.has_window()) windows.emplace_back(t.window_start_ns, t.window_end_ns);
    std::sort(windows.begin(), windows.end());
    windows.erase(std::unique(windows.begin(), windows.end()), windows.end());
    std::int64_t longest = 0;
    for (const auto& [w0, w1] : windows) longest = std::max(longest, w1 - w0);
    std::vector<std::map<std::uint32_t, std::pair<std::int64_t, Category>>> per(windows.size());
    trace::for_index_stoppable(run.activities.size(), stop, [&](std::size_t i) {
        const auto& a = run.activities[i];
        if (a.kind != trace::ActivityKind::Kernel) return;
        auto w = std::lower_bound(windows.begin(), windows.end(),
                                  IterationSpan{a.start_ns - longest, 0});
        for (; w != windows.end() && w->first < a.end_ns; ++w) {
            const auto lo = std::max(a.start_ns, w->first);
            const auto hi = std::min(a.end_ns, w->second);
            if (hi <= lo) continue;
            auto& slot = per[static_cast<std::size_t>(w - windows.begin())][a.name];
            if (slot.first == 0)
                slot.second = classify(a, run, options.attribution).value_or(Category::GpuCompute);
            slot.first += hi - lo;
        }
    });
    for (auto& t : tokens) {
        if (!t.has_window()) continue;
        const IterationSpan key{t.window_start_ns, t.window_end_ns};
        const auto& found = per[static_cast<std::size_t>(
            std::lower_bound(windows.begin(), windows.end(), key) - windows.begin())];
        for (const auto& [name, v] : found)
            t.kernels.push_back({std::string(run.strings.str(name)), v.first, v.second});
        std::stable_sort(t.kernels.begin(), t.kernels.end(),
                         [](const TokenKernel& x, const TokenKernel& y) { return x.ns > y.ns; });
        if (t.kernels.size() > options.top_kernels) t.kernels.resize(options.top_kernels);
    }
}

}  // namespace

Category SlowToken::dominant() const {
    std::size_t best = 0;
    for (std::size_t c = 1; c < kCategoryCount; ++c)
        if (attribution.assigned[c] > attribution.assigned[best]) best = c;
    return kCategories[best];
}

double SlowToken::dominant_share() const {
    const auto total = attribution.end_ns - attribution.start_ns;
    if (total <= 0) return 0.0;
    return static_cast<double>(attribution.assigned[static_cast<std::size_t>(dominant())]) /
           static_cast<double>(total);
}

bool is_joined_run(const trace::RunData& run) {
    bool tokens = false, iterations = false;
    for (const auto& s : run.steps) {
        if (s.is_iteration())
            iterations = true;
        else if (s.request != 0)
            tokens = true;
        if (tokens && iterations) return true;
    }
    return false;
}

std::int32_t slowest_token_in(const trace::RunData& run, const std::vector<std::int64_t>& itl,
                              std::int64_t request, std::int64_t t0, std::int64_t t1) {
    std::int32_t best = -1;
    for (std::size_t i = 0; i < run.steps.size() && i < itl.size(); ++i) {
        const auto& s = run.steps[i];
        if (!s.is_token() || s.request != request || s.end_ns < t0 || s.end_ns >= t1) continue;
        if (best < 0 || itl[i] > itl[static_cast<std::size_t>(best)])
            best = static_cast<std::int32_t>(i);
    }
    return best;
}

std::vector<std::int64_t> token_itl_ns(const trace::RunData& run) {
    const auto& steps = run.steps;
    std::vector<std::int64_t> itl(steps.size(), -1);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].is_token()) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const auto& x = steps[a];
        const auto& y = steps[b];
        return x.request != y.request ? x.request < y.request : x.index < y.index;
    });
    for (std::size_t k = 1; k < order.size(); ++k) {
        const auto& prev = steps[order[k - 1]];
        const auto& s = steps[order[k]];
        if (prev.request == s.request) itl[order[k]] = s.end_ns - prev.end_ns;
    }
    return itl;
}

std::vector<SlowToken> slowest_tokens(const trace::RunData& run, const SlowTokenOptions& options,
                                      const trace::StopToken& stop) {
    const std::vector<std::int64_t> itl = token_itl_ns(run);
    stop.throw_if_stopped();
    const std::vector<std::int32_t> links = token_iterations(run, options.link);
    return explain_tokens(run, ranked_tokens(run, itl, options), itl, links, options, stop);
}

std::vector<SlowToken> explain_tokens(const trace::RunData& run,
                                      const std::vector<std::size_t>& steps,
                                      const std::vector<std::int64_t>& itl,
                                      const std::vector<std::int32_t>& links,
                                      const SlowTokenOptions& options,
                                      const trace::StopToken& stop) {
    const bool has_iterations = std::any_of(run.steps.begin(), run.steps.end(),
                                            [](const trace::Step& s) { return s.is_iteration(); });
    std::vector<SlowToken> out;
    for (std::size_t i : steps) {
        if (i >= run.steps.size() || i >= itl.size() || i >= links.size()) continue;
        const auto& s = run.steps[i];
        SlowToken t;
        t.step = i, t.request = s.request, t.index = s.index;
        t.itl_ns = std::max<std::int64_t>(itl[i], 0);
        t.emitted_ns = s.end_ns;
        t.iteration_step = links[i];
        if (links[i] >= 0) {
            const auto& it = run.steps[static_cast<std::size_t>(links[i])];
            t.iteration = it.index;
            t.batch = it.batch;
            t.window_start_ns = it.start_ns, t.window_end_ns = it.end_ns;
        } else if (!has_iterations) {
            t.window_start_ns = s.start_ns, t.window_end_ns = s.end_ns;
        }
        out.push_back(std::move(t));
    }
    // Attribution over the windows only: one Coverage for the span they cover.
    std::int64_t t0 = std::numeric_limits<std::int64_t>::max();
    std::int64_t t1 = std::numeric_limits<std::int64_t>::min();
    for (const auto& t : out)
        if (t.has_window())
            t0 = std::min(t0, t.window_start_ns), t1 = std::max(t1, t.window_end_ns);
    if (t0 >= t1) return out;
    const Coverage coverage(run, options.attribution, t0, t1, stop);
    for (auto& t : out)
        if (t.has_window()) t.attribution = coverage.attribute(t.window_start_ns, t.window_end_ns);
    add_top_kernels(run, out, options, stop);
    return out;
}

std::vector<std::size_t> kernels_in(const trace::RunData& run, std::int64_t t0, std::int64_t t1) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < run.activities.size(); ++i) {
        const auto& a = run.activities[i];
        if (a.kind == trace::ActivityKind::Kernel && a.start_ns < t1 && a.end_ns > t0)
            out.push_back(i);
    }
    return out;
}

std::string describe_slow_token(const SlowToken& t) {
    char ms[48];
    std::snprintf(ms, sizeof ms, "%.3f ms", static_cast<double>(t.itl_ns) / 1e6);
    std::string out =
        "token " + std::to_string(t.index) + " of request " + std::to_string(t.request) + ": " + ms;
    if (t.iteration_step >= 0) {
        out += "; iteration " + std::to_string(t.iteration);
        if (const std::string batch = describe_batch(t.batch); !batch.empty()) out += ", " + batch;
    } else {
        out += t.has_window() ? "; its own step" : "; no iteration found";
    }
    if (!t.has_window()) return out;
    const Category c = t.dominant();
    char share[16];
    std::snprintf(share, sizeof share, "%.0f%%", 100.0 * t.dominant_share());
    out += std::string(", ") + share + " " + std::string(to_string(c));
    for (const auto& k : t.kernels)
        if (k.category == c) return out + " in " + short_kernel_name(k.name);
    return out;
}

}  // namespace tokenscope::analysis
