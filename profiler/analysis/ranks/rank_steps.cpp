#include "rank_steps.h"

#include <algorithm>
#include <limits>

#include "trace/collective.h"

namespace tokenscope::analysis {
namespace {

struct Interval {
    std::int64_t begin, end;
};

// Sorts and merges in place; returns the covered length.
std::int64_t merge_intervals(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end(), [](Interval x, Interval y) { return x.begin < y.begin; });
    std::size_t out = 0;
    for (const Interval& i : v) {
        if (out > 0 && i.begin <= v[out - 1].end)
            v[out - 1].end = std::max(v[out - 1].end, i.end);
        else
            v[out++] = i;
    }
    v.resize(out);
    std::int64_t total = 0;
    for (const Interval& i : v) total += i.end - i.begin;
    return total;
}

// Both merged and sorted.
std::int64_t overlap_of(const std::vector<Interval>& a, const std::vector<Interval>& b) {
    std::int64_t total = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        total += std::max<std::int64_t>(
            0, std::min(a[i].end, b[j].end) - std::max(a[i].begin, b[j].begin));
        if (a[i].end < b[j].end)
            ++i;
        else
            ++j;
    }
    return total;
}

// One rank's GPU work inside one step.
struct Bucket {
    std::vector<Interval> comm, compute;
    std::vector<std::int64_t> arrivals;  // starts of the step's collective kernels
    std::int64_t gpu_end = std::numeric_limits<std::int64_t>::min();
};

// Finds the steps an interval overlaps: steps by start, with the running maximum of
// their ends so the walk back stops at the first step that ends before it.
class StepIndex {
  public:
    explicit StepIndex(const std::vector<trace::Step>& steps) : steps_(steps) {
        order_.resize(steps.size());
        for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = i;
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t x, std::size_t y) {
            return steps[x].start_ns < steps[y].start_ns;
        });
        std::int64_t max_end = std::numeric_limits<std::int64_t>::min();
        for (std::size_t i : order_) {
            starts_.push_back(steps[i].start_ns);
            max_end = std::max(max_end, steps[i].end_ns);
            max_end_.push_back(max_end);
        }
    }
    template <typename Fn>
    void for_overlapping(std::int64_t begin, std::int64_t end, Fn&& fn) const {
        auto j = static_cast<std::size_t>(std::lower_bound(starts_.begin(), starts_.end(), end) -
                                          starts_.begin());
        while (j > 0 && max_end_[j - 1] > begin) {
            --j;
            const trace::Step& s = steps_[order_[j]];
            if (s.end_ns > begin && s.start_ns < end) fn(order_[j], s);
        }
    }

  private:
    const std::vector<trace::Step>& steps_;
    std::vector<std::size_t> order_;
    std::vector<std::int64_t> starts_, max_end_;
};

bool is_gpu_work(const trace::Activity& a, const trace::RunData& run) {
    if (!trace::is_gpu_operation(a.kind)) return false;
    return run.lanes[a.lane].kind != trace::LaneKind::CpuThread;
}

std::vector<Bucket> fill_buckets(const trace::RunData& run, const std::vector<int>& lane_rank,
                                 std::size_t nranks, const trace::StopToken& stop) {
    std::vector<Bucket> buckets(run.steps.size() * nranks);
    const StepIndex index(run.steps);
    std::vector<signed char> collective(run.strings.size(), -1);
    auto is_collective = [&](std::uint32_t name) {
        if (name >= collective.size()) return false;
        if (collective[name] < 0)
            collective[name] = trace::is_collective_kernel(run.strings.str(name)) ? 1 : 0;
        return collective[name] == 1;
    };
    trace::for_each_stoppable(run.activities, stop, [&](const trace::Activity& a) {
        if (a.lane >= lane_rank.size() || lane_rank[a.lane] < 0 || !is_gpu_work(a, run)) return;
        const bool coll = a.kind == trace::ActivityKind::Kernel && is_collective(a.name);
        const bool comm = coll || a.copy == trace::CopyKind::P2P;
        const bool compute = a.kind == trace::ActivityKind::Kernel && !coll;
        index.for_overlapping(a.start_ns, a.end_ns, [&](std::size_t i, const trace::Step& s) {
            Bucket& b = buckets[i * nranks + static_cast<std::size_t>(lane_rank[a.lane])];
            const Interval clip{std::max(a.start_ns, s.start_ns), std::min(a.end_ns, s.end_ns)};
            if (comm) b.comm.push_back(clip);
            if (compute) b.compute.push_back(clip);
            if (coll && a.start_ns >= s.start_ns) b.arrivals.push_back(a.start_ns);
            b.gpu_end = std::max(b.gpu_end, clip.end);
        });
    });
    return buckets;
}

// Lateness of each rank in one step, by the basis the step allows.
StragglerBasis lateness(std::vector<Bucket*>& ranks, std::vector<std::int64_t>& late) {
    late.assign(ranks.size(), 0);
    std::size_t with_collectives = 0, common = std::numeric_limits<std::size_t>::max();
    for (Bucket* b : ranks) {
        std::sort(b->arrivals.begin(), b->arrivals.end());
        if (!b->arrivals.empty()) ++with_collectives;
        common = std::min(common, b->arrivals.size());
    }
    if (with_collectives >= 2 && common > 0) {
        for (std::size_t k = 0; k < common; ++k) {
            std::int64_t first = std::numeric_limits<std::int64_t>::max();
            for (Bucket* b : ranks) first = std::min(first, b->arrivals[k]);
            for (std::size_t r = 0; r < ranks.size(); ++r) late[r] += ranks[r]->arrivals[k] - first;
        }
        return StragglerBasis::Collectives;
    }
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (Bucket* b : ranks)
        if (b->gpu_end != std::numeric_limits<std::int64_t>::min())
            first = std::min(first, b->gpu_end);
    for (std::size_t r = 0; r < ranks.size(); ++r)
        if (ranks[r]->gpu_end != std::numeric_limits<std::int64_t>::min())
            late[r] = ranks[r]->gpu_end - first;
    return StragglerBasis::GpuEnd;
}

// The step attribution of each rank: the run restricted to that rank's activities.
std::vector<std::vector<StepAttribution>> per_rank_attribution(const trace::RunData& run,
                                                               const std::vector<int>& lane_rank,
                                                               std::size_t nranks,
                                                               const AttributionOptions& options,
                                                               const trace::StopToken& stop) {
    std::vector<std::vector<StepAttribution>> out;
    for (std::size_t r = 0; r < nranks; ++r) {
        trace::RunData sub;
        sub.info = run.info;
        sub.strings = run.strings;
        sub.lanes = run.lanes;
        sub.steps = run.steps;
        for (const auto& a : run.activities)
            if (a.lane < lane_rank.size() && lane_rank[a.lane] == static_cast<int>(r))
                sub.activities.push_back(a);
        AttributionOptions o = options;
        const auto dl = static_cast<std::size_t>(options.driving_lane);
        if (options.driving_lane >= 0 &&
            (dl >= lane_rank.size() || lane_rank[dl] != static_cast<int>(r)))
            o.driving_lane = -1;  // the given thread is another rank's: this rank's busiest
        out.push_back(attribute_steps(sub, o, stop));
    }
    return out;
}

}  // namespace

std::string_view to_string(StragglerBasis basis) {
    return basis == StragglerBasis::Collectives ? "collectives" : "gpu_end";
}

std::vector<std::int32_t> run_ranks(const trace::RunData& run) {
    std::vector<std::int32_t> out;
    for (const auto& l : run.lanes)
        if (l.rank >= 0) out.push_back(l.rank);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<StepRanks> rank_steps(const trace::RunData& run, const AttributionOptions& options,
                                  const trace::StopToken& stop) {
    const std::vector<std::int32_t> ranks = run_ranks(run);
    if (ranks.size() < 2) return {};
    std::vector<int> lane_rank(run.lanes.size(), -1);
    for (std::size_t l = 0; l < run.lanes.size(); ++l)
        if (run.lanes[l].rank >= 0)
            lane_rank[l] = static_cast<int>(
                std::lower_bound(ranks.begin(), ranks.end(), run.lanes[l].rank) - ranks.begin());
    std::vector<Bucket> buckets = fill_buckets(run, lane_rank, ranks.size(), stop);
    const auto attribution = per_rank_attribution(run, lane_rank, ranks.size(), options, stop);
    std::vector<StepRanks> out(run.steps.size());
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
        stop.throw_if_stopped();
        StepRanks& s = out[i];
        s.step = i;
        std::vector<Bucket*> row;
        for (std::size_t r = 0; r < ranks.size(); ++r)
            row.push_back(&buckets[i * ranks.size() + r]);
        std::vector<std::int64_t> late;
        s.basis = lateness(row, late);
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            RankInStep rs;
            rs.rank = ranks[r];
            rs.attribution = attribution[r][i];
            rs.comm_ns = merge_intervals(row[r]->comm);
            merge_intervals(row[r]->compute);
            rs.overlap_ns = overlap_of(row[r]->comm, row[r]->compute);
            rs.lateness_ns = late[r];
            if (late[r] > s.lateness_ns) {
                s.lateness_ns = late[r];
                s.straggler = ranks[r];
            }
            s.ranks.push_back(rs);
        }
    }
    return out;
}

}  // namespace tokenscope::analysis
