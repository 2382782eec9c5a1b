#include "stored_analysis.h"

#include <algorithm>
#include <future>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "classifier.h"
#include "coverage.h"
#include "coverage_figures.h"
#include "launch_delay_stream.h"
#include "role_breakdown.h"
#include "store/lane_stream.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;
using Interval = std::pair<std::int64_t, std::int64_t>;

// Slice bounds T_0 < ... < T_K over everything the run holds: every lane's activities
// (their starts included, whatever their ends) and every step, in slices of equal time.
std::vector<std::int64_t> slice_bounds(const store::StoreReader& reader, const trace::RunData& run,
                                       std::int64_t activities, std::int64_t per_slice) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane)
        if (auto b = reader.lane_bounds(run.info.id, static_cast<std::uint16_t>(lane))) {
            lo = std::min(lo, b->first);
            hi = std::max(hi, b->second);
        }
    for (const auto& s : run.steps) {
        lo = std::min(lo, s.start_ns);
        hi = std::max(hi, s.end_ns);
    }
    if (lo > hi) return {};
    ++hi;  // past the last instant
    const std::int64_t k = std::max<std::int64_t>(1, (activities + per_slice - 1) / per_slice);
    std::vector<std::int64_t> bounds;
    const auto span = static_cast<__int128>(hi) - lo;
    for (std::int64_t i = 0; i <= k; ++i) {
        const auto t = static_cast<std::int64_t>(lo + span * i / k);
        if (bounds.empty() || t > bounds.back()) bounds.push_back(t);
    }
    return bounds;
}

// Intervals by the slices they reach: bucket[k] lists the intervals meeting slice k.
std::vector<std::vector<std::uint32_t>> by_slice(const std::vector<Interval>& intervals,
                                                 const std::vector<std::int64_t>& bounds) {
    std::vector<std::vector<std::uint32_t>> out(bounds.size() - 1);
    auto slice_of = [&](std::int64_t t) {
        auto it = std::upper_bound(bounds.begin(), bounds.end(), t);
        return static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, it - bounds.begin() - 1));
    };
    for (std::size_t i = 0; i < intervals.size(); ++i) {
        const auto [t0, t1] = intervals[i];
        if (t1 <= t0) continue;
        const std::size_t last = std::min(slice_of(t1 - 1), out.size() - 1);
        for (std::size_t k = slice_of(t0); k <= last; ++k)
            out[k].push_back(static_cast<std::uint32_t>(i));
    }
    return out;
}

// What is added up over the slices.
struct Totals {
    std::vector<StepAttribution> steps;
    std::vector<Interval> windows;  // the steps' [start, end)
    std::vector<Interval> pieces;   // overlapping_iteration_union
    std::vector<std::vector<std::uint32_t>> steps_by_slice, pieces_by_slice;
    UnionAttribution iterations;
    CoverageFigures figures;
};

void add_parts(CategoryNs& to, const CategoryNs& part) {
    for (std::size_t c = 0; c < kCategoryCount; ++c) to[c] += part[c];
}

// One slice [t0, t1): its coverage attributes the parts of steps and pieces inside it.
void attribute_slice(const trace::RunData& slice, const AttributionOptions& options, std::size_t k,
                     std::int64_t t0, std::int64_t t1, Totals& tot, const trace::StopToken& stop) {
    const Coverage cov(slice, options, t0, t1, stop);
    for (std::uint32_t i : tot.steps_by_slice[k]) {
        const auto [s0, s1] = tot.windows[i];
        const StepAttribution part = cov.attribute(std::max(s0, t0), std::min(s1, t1));
        add_parts(tot.steps[i].assigned, part.assigned);
        add_parts(tot.steps[i].hidden, part.hidden);
    }
    for (std::uint32_t i : tot.pieces_by_slice[k]) {
        const auto [p0, p1] = tot.pieces[i];
        tot.iterations.add(cov.attribute(std::max(p0, t0), std::min(p1, t1)));
    }
    tot.figures.nvlink_active_ns += cov.active_ns(category_bit(Category::Nvlink), t0, t1);
    tot.figures.gpu_busy_ns += cov.active_ns(
        category_bit(Category::GpuCompute) | category_bit(Category::GpuMemory), t0, t1);
}

// The run's lanes read once each, slice after slice. A slice holds every lane's
// activities that overlap it: those carried over from earlier slices (still running at
// its start), then those that start in it; lane after lane, each lane's by start.
class SliceReader {
  public:
    SliceReader(const store::StoreReader& reader, const trace::RunData& run)
        : carried_(run.lanes.size()) {
        for (std::size_t lane = 0; lane < run.lanes.size(); ++lane)
            lanes_.push_back(std::make_unique<store::LaneStream>(reader, run.info.id,
                                                                 static_cast<std::uint16_t>(lane)));
    }

    // lane_ends[i]: where the i-th lane's activities end in `out`.
    void read(std::int64_t t1, std::vector<trace::Activity>& out,
              std::vector<std::size_t>& lane_ends) {
        out.clear();
        lane_ends.clear();
        for (std::size_t lane = 0; lane < lanes_.size(); ++lane) {
            const std::size_t first = out.size();
            out.insert(out.end(), carried_[lane].begin(), carried_[lane].end());
            carried_[lane].clear();
            lanes_[lane]->read_until(t1, [&](const trace::Activity& a) { out.push_back(a); });
            // Still running at t1: the next slice's too (StoreReader::for_each_activity's
            // overlap rule).
            for (std::size_t i = first; i < out.size(); ++i)
                if (out[i].end_ns > t1) carried_[lane].push_back(out[i]);
            lane_ends.push_back(out.size());
        }
    }

  private:
    std::vector<std::unique_ptr<store::LaneStream>> lanes_;
    std::vector<std::vector<trace::Activity>> carried_;
};

// What is added up over the activities rather than the coverage.
struct ActivitySums {
    RoleAccumulator roles;
    LaunchDelayStream launches;
};

// Every slice in time order. While one slice's coverage is built and its launches measured,
// a second thread reads the next slice and adds up this one's roles (each activity once, in
// the slice it starts in): on two cores, reading and analysing overlap. A throw on either
// side waits for the other (the future's destructor) and goes on up.
void walk_slices(const store::StoreReader& reader, const trace::RunData& run,
                 const std::vector<std::int64_t>& bounds, const AttributionOptions& attribution,
                 Totals& tot, ActivitySums& sums, const trace::ProgressFn& progress,
                 const trace::StopToken& stop) {
    // The run's names and lanes, and a slice's activities.
    trace::RunData slice;
    slice.info = run.info;
    slice.strings = run.strings;
    slice.lanes = run.lanes;
    std::vector<trace::Activity> next;
    std::vector<std::size_t> lane_ends, next_ends;
    SliceReader slices_of_run(reader, run);
    const std::size_t slices = bounds.size() - 1;
    slices_of_run.read(bounds[1], slice.activities, lane_ends);
    for (std::size_t k = 0; k < slices; ++k) {
        stop.throw_if_stopped();
        const std::int64_t t0 = bounds[k], t1 = bounds[k + 1];
        auto beside = std::async(std::launch::async, [&] {
            if (k + 1 < slices) slices_of_run.read(bounds[k + 2], next, next_ends);
            for (const trace::Activity& a : slice.activities)
                if (a.start_ns >= t0) sums.roles.add(a);
        });
        attribute_slice(slice, attribution, k, t0, t1, tot, stop);
        sums.launches.add(slice.activities, lane_ends, t0);
        beside.get();
        slice.activities.swap(next);
        lane_ends.swap(next_ends);
        if (progress &&
            !progress(static_cast<std::int64_t>(k + 1), static_cast<std::int64_t>(slices)))
            throw trace::Cancelled();
    }
}

}  // namespace

int stored_driving_lane(const store::StoreReader& reader, const trace::RunData& run, int requested,
                        const trace::StopToken& stop) {
    if (requested >= 0) return resolve_driving_lane(run, requested, stop);
    std::vector<std::int64_t> api(run.lanes.size(), 0), ranges(run.lanes.size(), 0);
    for (std::size_t lane = 0; lane < run.lanes.size(); ++lane) {
        if (run.lanes[lane].kind != trace::LaneKind::CpuThread) continue;
        const auto t = reader.activity_totals(run.info.id, static_cast<std::uint16_t>(lane));
        if (!t) continue;
        api[lane] = t->count(ActivityKind::Api) + t->count(ActivityKind::Sync);
        ranges[lane] = t->count(ActivityKind::Range);
    }
    return driving_lane_of_counts(api, ranges);
}

AttributionRecord attribute_stored_run(const store::StoreReader& reader, const trace::RunData& run,
                                       const StoredAnalysisOptions& options,
                                       const trace::ProgressFn& progress,
                                       const trace::StopToken& stop) {
    const trace::ActivityTotals totals = run.activity_totals();
    AttributionOptions attribution = options.attribution;
    // Resolved once for the run: a slice alone might pick another lane.
    attribution.driving_lane = stored_driving_lane(reader, run, attribution.driving_lane, stop);
    Totals tot;
    for (const auto& s : run.steps) {
        tot.steps.push_back({s.start_ns, s.end_ns, {}, {}});
        tot.windows.emplace_back(s.start_ns, s.end_ns);
    }
    tot.pieces = overlapping_iteration_union(run.steps);
    const auto bounds = slice_bounds(reader, run, totals.activities(),
                                     std::max<std::int64_t>(1, options.slice_activities));
    ActivitySums sums{
        RoleAccumulator(run),
        LaunchDelayStream(options.exact_launch_delays,
                          static_cast<std::size_t>(totals.count(ActivityKind::Kernel)))};
    if (bounds.size() >= 2) {
        tot.steps_by_slice = by_slice(tot.windows, bounds);
        tot.pieces_by_slice = by_slice(tot.pieces, bounds);
        walk_slices(reader, run, bounds, attribution, tot, sums, progress, stop);
    }
    AttributionRecord out;
    if (!tot.pieces.empty()) out.iterations = tot.iterations;
    out.nvlink_active_ns = tot.figures.nvlink_active_ns;
    out.gpu_busy_ns = tot.figures.gpu_busy_ns;
    out.steps = std::move(tot.steps);
    RoleBreakdown roles = sums.roles.finish();
    out.step_roles = std::move(roles.steps);
    out.run_roles = roles.run;
    out.launch_delay = sums.launches.take_p95();
    return out;
}

RunAnalysis analysis_from_record(const trace::RunData& run, AttributionRecord record,
                                 const VerdictOptions& verdict, const trace::StopToken& stop) {
    CoverageFigures figures;
    figures.iterations = record.iterations;
    figures.nvlink_active_ns = record.nvlink_active_ns;
    figures.gpu_busy_ns = record.gpu_busy_ns;
    add_activity_figures(figures, run.activity_totals());
    RunAnalysis out;
    out.steps = std::move(record.steps);
    out.roles.phases = phase_roles(run.steps, record.step_roles);
    out.roles.steps = std::move(record.step_roles);
    out.roles.run = record.run_roles;
    out.assessment = assess_run(run, out.steps, figures, record.launch_delay, verdict, stop);
    return out;
}

RunAnalysis analyse_stored_run(const store::StoreReader& reader, const trace::RunData& run,
                               const StoredAnalysisOptions& options,
                               const trace::ProgressFn& progress, const trace::StopToken& stop) {
    return analysis_from_record(run, attribute_stored_run(reader, run, options, progress, stop),
                                options.verdict, stop);
}

}  // namespace tokenscope::analysis
