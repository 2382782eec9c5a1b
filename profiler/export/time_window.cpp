#include "time_window.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_set>

#include "store/store_reader.h"
#include "trace/activity_order.h"
#include "trace/memory_budget.h"

namespace tokenscope::exporter {
namespace {

bool spans(std::int64_t start, std::int64_t end, TimeWindow w) {
    return start < w.end_ns && (end > w.start_ns || start >= w.start_ns);
}

// Everything of `run` but its activities, launches and graph nodes, cut to the window.
trace::RunData shell_of(const trace::RunData& run, TimeWindow w) {
    trace::RunData out;
    out.info = run.info;
    out.strings = run.strings;
    out.lanes = run.lanes;
    out.diagnostics = run.diagnostics;
    for (const auto& s : run.steps)
        if (spans(s.start_ns, s.end_ns, w)) out.steps.push_back(s);
    for (const auto& r : run.requests)
        if (spans(r.arrival_ns, std::max(r.done_ns, r.arrival_ns), w)) out.requests.push_back(r);
    for (const auto& c : run.counters)
        if (c.time_ns >= w.start_ns && c.time_ns < w.end_ns) out.counters.push_back(c);
    return out;
}

// The window's activities, as the timeline summaries count those starting in it: the
// bins of the finest level that covers the window in at most 2^16 bins, per lane.
std::int64_t activities_in(const store::StoreReader& reader, const trace::RunData& light,
                           TimeWindow w) {
    std::int64_t n = 0;
    const auto span = static_cast<std::uint64_t>(w.end_ns) - static_cast<std::uint64_t>(w.start_ns);
    for (std::size_t lane = 0; lane < light.lanes.size(); ++lane) {
        const auto id = static_cast<std::uint16_t>(lane);
        for (const auto& level : reader.summary_levels(light.info.id, id)) {
            if (level.bin_log2() < 63 && (span >> level.bin_log2()) > (1u << 16)) continue;
            for (const auto& bin :
                 reader.summary_bins(light.info.id, id, level.level, w.start_ns, w.end_ns))
                n += bin.count;
            break;
        }
    }
    return n;
}

}  // namespace

TimeWindow run_span(const trace::RunData& run) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const auto& kind : run.activity_totals().cells)
        for (const auto& cell : kind)
            if (cell.count > 0) {
                lo = std::min(lo, cell.first_start_ns);
                hi = std::max(hi, cell.last_end_ns);
            }
    for (const auto& s : run.steps) {
        lo = std::min(lo, s.start_ns);
        hi = std::max(hi, s.end_ns);
    }
    for (const auto& c : run.counters) {
        lo = std::min(lo, c.time_ns);
        hi = std::max(hi, c.time_ns);
    }
    if (lo > hi) return {0, 1};
    return {lo, hi < std::numeric_limits<std::int64_t>::max() ? hi + 1 : hi};
}

trace::RunData cut_to_window(const trace::RunData& run, TimeWindow w) {
    trace::RunData out = shell_of(run, w);
    for (const auto& a : run.activities) {
        if (!a.overlaps(w.start_ns, w.end_ns)) continue;
        out.activities.push_back(a);
        if (a.kind == trace::ActivityKind::Kernel)
            if (auto launch = run.launches.find(a.correlation)) out.launches.add(*launch);
        if (auto node = run.graphs.find(a)) out.graphs.add(a.lane, a.start_ns, *node);
    }
    out.launches.finish();
    out.graphs.finish();
    return out;
}

trace::RunData read_window(const store::StoreReader& reader, const trace::RunData& light,
                           TimeWindow w, const trace::ProgressFn& progress) {
    const std::int64_t expected = activities_in(reader, light, w);
    trace::MemoryBudget(reader.path())
        .require(static_cast<std::uint64_t>(expected) * sizeof(trace::Activity) * 2,
                 "the window (" + std::to_string(expected) +
                     " activities; --from and --to choose a smaller one)");
    trace::RunData out = shell_of(light, w);
    std::unordered_set<std::uint32_t> kernels;
    const auto lanes = static_cast<std::int64_t>(light.lanes.size());
    for (std::int64_t lane = 0; lane < lanes; ++lane) {
        if (progress && !progress(lane, lanes)) throw trace::Cancelled();
        reader.for_each_activity(light.info.id, static_cast<std::uint16_t>(lane), w.start_ns,
                                 w.end_ns, [&](const trace::Activity& a) {
                                     out.activities.push_back(a);
                                     if (a.kind == trace::ActivityKind::Kernel)
                                         kernels.insert(a.correlation);
                                 });
    }
    trace::sort_activities(out.activities);
    reader.for_each_launch(light.info.id, [&](const trace::KernelLaunch& l) {
        if (kernels.contains(l.correlation)) out.launches.add(l);
    });
    reader.for_each_graph_activity(light.info.id, [&](const trace::GraphActivity& g) {
        trace::Activity key;
        key.lane = g.lane;
        key.start_ns = g.start_ns;
        if (std::binary_search(out.activities.begin(), out.activities.end(), key,
                               trace::lane_start_order))
            out.graphs.add(g);
    });
    out.launches.finish();
    out.graphs.finish();
    if (progress && !progress(lanes, lanes)) throw trace::Cancelled();
    return out;
}

}  // namespace tokenscope::exporter
