#include "merge_ranks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "collective_fit.h"
#include "trace/activity_order.h"

namespace tokenscope::import {
namespace {

using merge::CollectiveEnds;

// The rank of each input: the one its lanes name where every input names one and no
// two inputs share it, else its position (with a diagnostic saying so).
std::vector<std::int32_t> input_ranks(const std::vector<trace::RunData>& ranks, bool* by_position) {
    std::vector<std::int32_t> out;
    std::set<std::int32_t> seen;
    bool known = true;
    for (const auto& run : ranks) {
        std::int32_t r = -1;
        for (const auto& l : run.lanes)
            if (l.rank >= 0 && (r < 0 || l.rank < r)) r = l.rank;
        if (r < 0 || !seen.insert(r).second) known = false;
        out.push_back(r);
    }
    *by_position = !known;
    if (!known)
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::int32_t>(i);
    return out;
}

std::size_t reference_of(const std::vector<std::int32_t>& rank) {
    return static_cast<std::size_t>(std::min_element(rank.begin(), rank.end()) - rank.begin());
}

bool all_have_origins(const std::vector<trace::RunData>& ranks) {
    return std::all_of(ranks.begin(), ranks.end(),
                       [](const trace::RunData& r) { return r.info.origin_utc_ns.has_value(); });
}

std::string label(const std::vector<trace::RunData>& ranks, const std::vector<std::int32_t>& rank,
                  std::size_t i) {
    return "rank " + std::to_string(rank[i]) + " (" + ranks[i].info.name + ")";
}

std::vector<RankClock> fit(const std::vector<trace::RunData>& ranks,
                           const std::vector<std::int32_t>& rank, ClockAlignment alignment,
                           const trace::StopToken& stop) {
    if (ranks.empty()) throw MergeError("no runs to merge");
    const std::size_t ref = reference_of(rank);
    if (alignment == ClockAlignment::Auto)
        alignment =
            all_have_origins(ranks) ? ClockAlignment::StartTimes : ClockAlignment::Collectives;
    if (alignment == ClockAlignment::StartTimes)
        for (std::size_t i = 0; i < ranks.size(); ++i)
            if (!ranks[i].info.origin_utc_ns)
                throw MergeError(label(ranks, rank, i) +
                                 ": the file records no absolute start time to align by");
    std::vector<CollectiveEnds> ends;
    for (const auto& run : ranks) ends.push_back(merge::collective_ends(run, stop));
    std::vector<RankClock> out(ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        RankClock& c = out[i];
        c.rank = rank[i];
        if (i == ref) continue;
        merge::CollectiveFit f;
        if (alignment == ClockAlignment::StartTimes) {
            c.method = ClockAlignment::StartTimes;
            c.offset_ns = *ranks[i].info.origin_utc_ns - *ranks[ref].info.origin_utc_ns;
            f = merge::misfit_at(ends[ref], ends[i], c.offset_ns);
        } else if (alignment == ClockAlignment::Collectives) {
            f = merge::fit_collectives(ends[ref], ends[i], stop);
            if (f.matched == 0)
                throw MergeError(label(ranks, rank, i) +
                                 ": no absolute start time, and no NCCL collective kernel that "
                                 "matches one of " +
                                 label(ranks, rank, ref) + " to align the clocks by");
            c.method = ClockAlignment::Collectives;
            c.offset_ns = f.offset_ns;
        }
        c.matched = f.matched;
        c.residual_rms_ns = f.rms_ns;
        c.residual_max_ns = f.max_ns;
    }
    return out;
}

// Correlation ids of rank i are moved past those of the ranks before it.
std::vector<std::uint32_t> correlation_bases(const std::vector<trace::RunData>& ranks) {
    std::vector<std::uint32_t> out;
    std::uint64_t next = 0;
    for (const auto& run : ranks) {
        out.push_back(static_cast<std::uint32_t>(next));
        std::uint32_t top = 0;
        for (const auto& a : run.activities) top = std::max(top, a.correlation);
        next += static_cast<std::uint64_t>(top) + 1;
        if (next > std::numeric_limits<std::uint32_t>::max())
            throw MergeError("the ranks' correlation ids together exceed 2^32");
    }
    return out;
}

void add_clock_diagnostics(trace::RunData& out, const std::vector<RankClock>& clocks,
                           const std::vector<trace::RunData>& ranks,
                           const std::vector<std::int32_t>& rank) {
    double sum_sq = 0;
    std::int64_t matched = 0;
    for (std::size_t i = 0; i < clocks.size(); ++i) {
        const RankClock& c = clocks[i];
        std::string text = label(ranks, rank, i) + ": ";
        if (i == reference_of(rank))
            text += "the reference clock";
        else if (c.method == ClockAlignment::None)
            text += "times kept as they are (alignment none)";
        else
            text += std::to_string(c.offset_ns) + " ns added, from " +
                    (c.method == ClockAlignment::StartTimes ? "the files' start times"
                                                            : "matched NCCL collective ends") +
                    "; " + std::to_string(c.matched) + " collective ends matched";
        out.diagnostics.push_back(
            {"merge_clock_offset", trace::Severity::Info, static_cast<double>(c.offset_ns), text});
        sum_sq += c.residual_rms_ns * c.residual_rms_ns * static_cast<double>(c.matched);
        matched += c.matched;
    }
    if (matched > 0) {
        double max = 0;
        for (const auto& c : clocks) max = std::max(max, c.residual_max_ns);
        out.diagnostics.push_back(
            {"merge_clock_residual", trace::Severity::Info,
             std::sqrt(sum_sq / static_cast<double>(matched)),
             "RMS ns by which the same collective's ends differ across ranks after alignment (" +
                 std::to_string(matched) + " ends, max " + std::to_string(std::llround(max)) +
                 " ns)"});
    }
}

void append_rank(trace::RunData& out, trace::RunData& in, std::int32_t rank, std::int64_t offset,
                 std::uint32_t corr_base, bool is_ref, const trace::StopToken& stop) {
    const std::size_t lane_base = out.lanes.size();
    if (lane_base + in.lanes.size() > std::numeric_limits<std::uint16_t>::max() + std::size_t{1})
        throw MergeError("the ranks together have more than 65536 timeline lanes");
    for (auto& l : in.lanes) {
        l.rank = rank;
        out.lanes.push_back(std::move(l));
    }
    std::vector<std::uint32_t> names(in.strings.size());
    for (std::size_t i = 0; i < names.size(); ++i)
        names[i] = out.strings.intern(in.strings.str(static_cast<std::uint32_t>(i)));
    auto lane16 = [&](std::uint16_t l) { return static_cast<std::uint16_t>(lane_base + l); };
    trace::for_each_stoppable(in.activities, stop, [&](trace::Activity a) {
        a.start_ns += offset;
        a.end_ns += offset;
        a.name = a.name < names.size() ? names[a.name] : 0;
        if (a.correlation != 0) a.correlation += corr_base;
        a.lane = lane16(a.lane);
        out.activities.push_back(a);
    });
    for (auto c : in.counters) {
        c.time_ns += offset;
        c.lane = lane16(c.lane);
        out.counters.push_back(c);
    }
    for (trace::KernelLaunch k : in.launches) {
        k.correlation += corr_base;
        out.launches.add(k);
    }
    for (auto d : in.diagnostics) {
        d.text = "rank " + std::to_string(rank) + ": " + d.text;
        out.diagnostics.push_back(std::move(d));
    }
    if (!is_ref) return;
    for (auto s : in.steps) {
        s.shift(offset);
        out.steps.push_back(s);
    }
    for (auto r : in.requests) {
        r.arrival_ns += offset;
        r.first_token_ns += offset;
        r.done_ns += offset;
        out.requests.push_back(r);
    }
}

std::string merged_workload(const std::vector<trace::RunData>& ranks,
                            const std::vector<std::int32_t>& rank,
                            const std::vector<RankClock>& clocks) {
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        nlohmann::json w = nlohmann::json::parse(ranks[i].info.workload_json, nullptr, false);
        list.push_back({{"rank", rank[i]},
                        {"name", ranks[i].info.name},
                        {"source", std::string(trace::to_string(ranks[i].info.source))},
                        {"clock_offset_ns", clocks[i].offset_ns},
                        {"workload", w.is_discarded() ? nlohmann::json() : w}});
    }
    return nlohmann::json{{"format", "merged_ranks"}, {"ranks", list}}.dump();
}

}  // namespace

std::string_view to_string(ClockAlignment alignment) {
    switch (alignment) {
        case ClockAlignment::Auto:
            return "auto";
        case ClockAlignment::StartTimes:
            return "start_times";
        case ClockAlignment::Collectives:
            return "collectives";
        case ClockAlignment::None:
            return "none";
    }
    return "auto";
}

std::vector<RankClock> fit_rank_clocks(const std::vector<trace::RunData>& ranks,
                                       ClockAlignment alignment, const trace::StopToken& stop) {
    bool by_position = false;
    return fit(ranks, input_ranks(ranks, &by_position), alignment, stop);
}

trace::RunData merge_ranks(std::vector<trace::RunData> ranks, const MergeOptions& options,
                           const trace::StopToken& stop) {
    bool by_position = false;
    const std::vector<std::int32_t> rank = input_ranks(ranks, &by_position);
    const std::vector<RankClock> clocks = fit(ranks, rank, options.alignment, stop);
    const std::vector<std::uint32_t> corr = correlation_bases(ranks);
    const std::size_t ref = reference_of(rank);

    trace::RunData out;
    out.info = ranks[ref].info;
    out.info.id = 0;
    out.info.name = !options.name.empty()
                        ? options.name
                        : ranks[ref].info.name + " +" + std::to_string(ranks.size() - 1) + " ranks";
    out.info.workload_json = merged_workload(ranks, rank, clocks);
    out.info.complete = std::all_of(ranks.begin(), ranks.end(),
                                    [](const trace::RunData& r) { return r.info.complete; });
    add_clock_diagnostics(out, clocks, ranks, rank);
    if (by_position)
        out.diagnostics.push_back(
            {"merge_ranks_by_position", trace::Severity::Info, static_cast<double>(ranks.size()),
             "the files do not all name distinct ranks (Kineto distributedInfo): ranks "
             "numbered in the order the files were given"});
    std::int64_t dropped_steps = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i != ref) dropped_steps += static_cast<std::int64_t>(ranks[i].steps.size());
        append_rank(out, ranks[i], rank[i], clocks[i].offset_ns, corr[i], i == ref, stop);
        ranks[i] = trace::RunData();  // frees each input as soon as it is copied
    }
    if (dropped_steps > 0)
        out.diagnostics.push_back(
            {"merge_steps_from_reference", trace::Severity::Info,
             static_cast<double>(dropped_steps),
             "steps are the reference rank's; the other ranks' own iterations are not kept"});
    trace::sort_activities(out.activities);
    out.launches.finish();
    return out;
}

}  // namespace tokenscope::import
