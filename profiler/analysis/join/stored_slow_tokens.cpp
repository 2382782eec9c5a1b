#include "stored_slow_tokens.h"

#include <algorithm>
#include <utility>

#include "analysis/attribution/stored_analysis.h"
#include "store/store_reader.h"
#include "trace/activity_order.h"

namespace tokenscope::analysis {
namespace {

using TokenWindow = std::pair<std::int64_t, std::int64_t>;

// The tokens' windows, sorted and merged where they touch.
std::vector<TokenWindow> merged_windows(const std::vector<SlowToken>& tokens) {
    std::vector<TokenWindow> windows;
    for (const SlowToken& t : tokens)
        if (t.has_window()) windows.emplace_back(t.window_start_ns, t.window_end_ns);
    std::sort(windows.begin(), windows.end());
    std::vector<TokenWindow> out;
    for (const TokenWindow& w : windows) {
        if (!out.empty() && w.first <= out.back().second)
            out.back().second = std::max(out.back().second, w.second);
        else
            out.push_back(w);
    }
    return out;
}

// `run` with the activities that overlap `windows` (sorted, disjoint) read from the file, a
// lane at a time: every one each window's attribution and kernels need.
trace::RunData with_windows(const store::StoreReader& reader, const trace::RunData& run,
                            const std::vector<TokenWindow>& windows, const trace::StopToken& stop) {
    trace::RunData part = run;
    part.in_file.reset();
    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane)
        for (std::size_t k = 0; k < windows.size(); ++k) {
            stop.throw_if_stopped();
            reader.for_each_activity(
                run.info.id, static_cast<std::uint16_t>(lane), windows[k].first, windows[k].second,
                [&](const trace::Activity& a) {
                    // One running across two windows was read with the first.
                    if (k == 0 || !a.overlaps(windows[k - 1].first, windows[k - 1].second))
                        part.activities.push_back(a);
                });
        }
    trace::sort_activities(part.activities);
    return part;
}

SlowTokenOptions resolved_options(const store::StoreReader& reader, const trace::RunData& run,
                                  const SlowTokenOptions& options, const trace::StopToken& stop) {
    SlowTokenOptions resolved = options;
    resolved.attribution.driving_lane =
        stored_driving_lane(reader, run, options.attribution.driving_lane, stop);
    return resolved;
}

}  // namespace

std::vector<SlowToken> stored_slowest_tokens(const store::StoreReader& reader,
                                             const trace::RunData& run,
                                             const SlowTokenOptions& options,
                                             const trace::StopToken& stop) {
    const SlowTokenOptions resolved = resolved_options(reader, run, options, stop);
    // The choice needs the steps alone: on the run without activities it is the same.
    const auto windows = merged_windows(slowest_tokens(run, resolved, stop));
    return slowest_tokens(with_windows(reader, run, windows, stop), resolved, stop);
}

std::vector<SlowToken> stored_explain_tokens(const store::StoreReader& reader,
                                             const trace::RunData& run,
                                             const std::vector<std::size_t>& steps,
                                             const std::vector<std::int64_t>& itl,
                                             const std::vector<std::int32_t>& links,
                                             const SlowTokenOptions& options,
                                             const trace::StopToken& stop) {
    const SlowTokenOptions resolved = resolved_options(reader, run, options, stop);
    const auto windows = merged_windows(explain_tokens(run, steps, itl, links, resolved, stop));
    return explain_tokens(with_windows(reader, run, windows, stop), steps, itl, links, resolved,
                          stop);
}

}  // namespace tokenscope::analysis
