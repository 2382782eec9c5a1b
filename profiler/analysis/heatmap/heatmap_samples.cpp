#include "heatmap_samples.h"

#include "analysis/kernel_role.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "batch_label.h"

namespace tokenscope::analysis {
namespace {

using trace::Phase;

// Bucket number of a token position; see HeatmapSpec::bucket_width.
std::int64_t position_bucket(std::int64_t pos, const HeatmapSpec& spec) {
    pos = std::max<std::int64_t>(pos, 0);
    if (!spec.first_token_alone) return pos / spec.bucket_width;
    return pos == 0 ? 0 : 1 + pos / spec.bucket_width;
}

std::string position_label(std::int64_t bucket, const HeatmapSpec& spec) {
    const std::int64_t w = spec.bucket_width;
    std::int64_t lo = bucket * w, hi = (bucket + 1) * w - 1;
    if (spec.first_token_alone) {
        if (bucket == 0) return "pos 0";
        lo = std::max<std::int64_t>(1, (bucket - 1) * w);
        hi = bucket * w - 1;
    }
    if (lo == hi) return "pos " + std::to_string(lo);
    return "pos " + std::to_string(lo) + "-" + std::to_string(hi);
}

// True for the first `warmup` steps of each request by token index (iteration steps
// share request 0, so: the first W iterations), as metrics.h's warmup_steps.
std::vector<bool> warmup_steps(const std::vector<trace::Step>& steps,
                               const std::vector<std::size_t>& by_request, std::size_t warmup) {
    std::vector<bool> warm(steps.size(), false);
    std::size_t seen = 0;
    for (std::size_t i = 0; i < by_request.size(); ++i) {
        const bool same = i > 0 && steps[by_request[i - 1]].request == steps[by_request[i]].request;
        seen = same ? seen + 1 : 0;
        warm[by_request[i]] = seen < warmup;
    }
    return warm;
}

// Step indices ordered by (request, token index).
std::vector<std::size_t> order_by_request(const std::vector<trace::Step>& steps) {
    std::vector<std::size_t> order(steps.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (steps[a].request != steps[b].request) return steps[a].request < steps[b].request;
        return steps[a].index < steps[b].index;
    });
    return order;
}

// Requests in flight (arrived, not yet done; a request emitting its last token at t
// still counts) at a time, for rows by concurrency: serving benchmarks' key question
// is how latency grows with load.
struct InFlight {
    std::vector<std::int64_t> arrivals, dones;

    explicit InFlight(const std::vector<trace::Request>& requests) {
        for (const auto& r : requests) {
            if (r.failed) continue;
            arrivals.push_back(r.arrival_ns);
            dones.push_back(r.done_ns);
        }
        std::sort(arrivals.begin(), arrivals.end());
        std::sort(dones.begin(), dones.end());
    }
    std::int64_t at(std::int64_t t) const {
        auto arrived = std::upper_bound(arrivals.begin(), arrivals.end(), t) - arrivals.begin();
        auto done = std::lower_bound(dones.begin(), dones.end(), t) - dones.begin();
        return std::max<std::int64_t>(0, arrived - done);
    }
};

// Power-of-two buckets 0, 1, 2, 3-4, 5-8, ...; the key is the bucket's upper bound.
std::int64_t concurrency_bucket(std::int64_t n) {
    if (n <= 2) return n;
    std::int64_t hi = 4;
    while (hi < n) hi *= 2;
    return hi;
}

std::string concurrency_label(std::int64_t key) {
    if (key <= 2) return "in flight " + std::to_string(key);
    return "in flight " + std::to_string(key / 2 + 1) + "-" + std::to_string(key);
}

// Kernels that start before the last warm-up token is emitted belong to warm-up.
std::int64_t warmup_cutoff(const trace::RunData& run, const HeatmapSpec& spec) {
    if (spec.warmup == 0 || run.steps.empty()) return std::numeric_limits<std::int64_t>::min();
    std::vector<std::int64_t> ends;
    for (const auto& s : run.steps) ends.push_back(s.end_ns);
    std::sort(ends.begin(), ends.end());
    return spec.warmup >= ends.size() ? std::numeric_limits<std::int64_t>::max()
                                      : ends[spec.warmup - 1];
}

// Rank rows: each lane's key is its rank + 1, so 0 is "no rank"; never empty.
std::vector<std::size_t> rank_keys(const trace::RunData& run) {
    std::vector<std::size_t> out;
    for (const auto& l : run.lanes)
        out.push_back(static_cast<std::size_t>(std::max(l.rank, -1) + 1));
    if (out.empty()) out.push_back(0);
    return out;
}

void check_fit(const HeatmapSpec& spec) {
    const bool kernel_rows = kernel_metric_rows(spec.rows);
    const bool kernel_metric = spec.metric == HeatmapMetric::KernelDuration;
    if (kernel_rows != kernel_metric)
        throw std::invalid_argument("heatmap: rows '" + std::string(to_string(spec.rows)) +
                                    "' do not fit metric '" + std::string(to_string(spec.metric)) +
                                    "' (kernel, lane, rank and role rows need metric kernel)");
    if (spec.bucket_width <= 0)
        throw std::invalid_argument("heatmap: bucket width must be positive, got " +
                                    std::to_string(spec.bucket_width));
}

}  // namespace

HeatmapSamples::HeatmapSamples(const trace::RunData& run, const HeatmapSpec& spec,
                               const trace::StopToken& stop, ActivityVisit visit)
    : run_(run), stop_(stop), visit_(std::move(visit)) {
    check_fit(spec);
    if (spec.metric == HeatmapMetric::KernelDuration) {
        build_kernel_rows(spec);
    } else {
        build_step_samples(spec);
        assign_keyed_rows(spec);
    }
}

void HeatmapSamples::build_kernel_rows(const HeatmapSpec& spec) {
    kernels_ = true;
    by_lane_ = spec.rows == HeatmapRows::Lane;
    const bool by_rank = spec.rows == HeatmapRows::Rank;
    const bool by_role = spec.rows == HeatmapRows::Role;
    const std::vector<std::size_t> rank_key =
        by_rank ? rank_keys(run_) : std::vector<std::size_t>{};
    KernelRoles roles(run_);
    kernel_cutoff_ = warmup_cutoff(run_, spec);
    // Per key (name id, lane or rank): total time, count, first and last start.
    std::size_t keys = by_rank    ? *std::max_element(rank_key.begin(), rank_key.end()) + 1
                       : by_role  ? kKernelRoleCount
                       : by_lane_ ? run_.lanes.size()
                                  : run_.strings.size();
    std::vector<std::int64_t> total(keys, 0), count(keys, 0);
    constexpr auto kNone = std::numeric_limits<std::int64_t>::max();
    constexpr auto kNoneLast = std::numeric_limits<std::int64_t>::min();
    std::vector<std::int64_t> first(keys, kNone), last(keys, kNoneLast);
    auto count_kernel = [&](const trace::Activity& a) {
        if (a.kind != trace::ActivityKind::Kernel || a.start_ns < kernel_cutoff_) return;
        std::size_t k = by_rank    ? (a.lane < rank_key.size() ? rank_key[a.lane] : 0)
                        : by_role  ? static_cast<std::size_t>(roles.of_name(a.name))
                        : by_lane_ ? a.lane
                                   : a.name;
        if (k >= keys) {  // an id past the table (corrupt input) still gets a slot
            keys = k + 1;
            total.resize(keys, 0), count.resize(keys, 0);
            first.resize(keys, kNone), last.resize(keys, kNoneLast);
        }
        total[k] += a.duration_ns();
        ++count[k];
        first[k] = std::min(first[k], a.start_ns);
        last[k] = std::max(last[k], a.start_ns);
    };
    if (visit_)
        visit_(count_kernel);
    else
        trace::for_each_stoppable(run_.activities, stop_, count_kernel);
    stop_.throw_if_stopped();
    std::vector<std::size_t> shown;
    for (std::size_t k = 0; k < keys; ++k)
        if (count[k] > 0) shown.push_back(k);
    if (!by_lane_ && !by_rank && !by_role) {
        std::sort(shown.begin(), shown.end(), [&](std::size_t a, std::size_t b) {
            if (total[a] != total[b]) return total[a] > total[b];
            return run_.strings.str(static_cast<std::uint32_t>(a)) <
                   run_.strings.str(static_cast<std::uint32_t>(b));
        });
        if (spec.top_n > 0 && shown.size() > spec.top_n) shown.resize(spec.top_n);
    }
    row_of_id_.assign(keys, -1);
    for (std::size_t r = 0; r < shown.size(); ++r) {
        const std::size_t k = shown[r];
        row_of_id_[k] = static_cast<std::int32_t>(r);
        min_time_ = std::min(min_time_, first[k]);
        max_time_ = std::max(max_time_, last[k]);
        if (by_rank) {
            labels_.push_back(k == 0 ? "no rank" : "rank " + std::to_string(k - 1));
        } else if (by_role) {
            labels_.emplace_back(display_name(static_cast<KernelRole>(k)));
        } else if (by_lane_) {
            const std::string& name = k < run_.lanes.size() ? run_.lanes[k].name : std::string();
            labels_.push_back(name.empty() ? "lane " + std::to_string(k) : name);
        } else {
            labels_.emplace_back(run_.strings.str(static_cast<std::uint32_t>(k)));
        }
    }
    if (by_rank) {  // looked up by lane from here on
        std::vector<std::int32_t> per_lane;
        for (std::size_t key : rank_key) per_lane.push_back(row_of_id_[key]);
        row_of_id_ = std::move(per_lane);
        by_lane_ = true;
    }
    if (by_role) row_of_id_ = rows_by_name(roles);
}

// Role rows are looked up by name id, like kernel rows: each kernel name the run's
// kernels carry takes its role's row.
std::vector<std::int32_t> HeatmapSamples::rows_by_name(KernelRoles& roles) const {
    // Every name, not only those kernels carry (kernel_row asks for kernels alone): no pass
    // over the activities, which a run left in its file does not have in memory.
    std::vector<std::int32_t> per_name(run_.strings.size(), -1);
    for (std::uint32_t id = 0; id < per_name.size(); ++id)
        per_name[id] = row_of_id_[static_cast<std::size_t>(roles.of_name(id))];
    return per_name;
}

void HeatmapSamples::add_keyed(std::int64_t key, std::int64_t time, double value) {
    keys_.push_back(key);
    times_.push_back(time);
    values_.push_back(value);
    min_time_ = std::min(min_time_, time);
    max_time_ = std::max(max_time_, time);
}

void HeatmapSamples::build_step_samples(const HeatmapSpec& spec) {
    const auto& steps = run_.steps;
    const InFlight in_flight(spec.rows == HeatmapRows::Concurrency ? run_.requests
                                                                   : std::vector<trace::Request>{});
    const trace::BatchComposition no_batch;
    auto key_of = [&](std::int64_t request, Phase phase, std::int64_t pos, std::int64_t time,
                      const trace::BatchComposition& batch) -> std::int64_t {
        if (spec.rows == HeatmapRows::Batch) return batch_row_key(batch);
        if (spec.rows == HeatmapRows::Request) return request;
        if (spec.rows == HeatmapRows::Phase) return static_cast<std::int64_t>(phase);
        if (spec.rows == HeatmapRows::Concurrency) return concurrency_bucket(in_flight.at(time));
        return position_bucket(pos, spec);
    };
    if (spec.metric == HeatmapMetric::Ttft) {
        std::vector<const trace::Request*> reqs;
        for (const auto& r : run_.requests) reqs.push_back(&r);
        std::stable_sort(reqs.begin(), reqs.end(),
                         [](auto* a, auto* b) { return a->arrival_ns < b->arrival_ns; });
        for (std::size_t i = spec.warmup; i < reqs.size(); ++i) {
            const trace::Request& r = *reqs[i];
            if (r.failed) continue;
            add_keyed(key_of(r.id, Phase::Prefill, 0, r.first_token_ns, no_batch), r.first_token_ns,
                      double(r.first_token_ns - r.arrival_ns));
        }
        return;
    }
    stop_.throw_if_stopped();
    const std::vector<std::size_t> order = order_by_request(steps);
    const std::vector<bool> warm = warmup_steps(steps, order, spec.warmup);
    if (spec.metric == HeatmapMetric::StepLatency) {
        trace::for_index_stoppable(steps.size(), stop_, [&](std::size_t i) {
            const trace::Step& s = steps[i];
            if (!warm[i])
                add_keyed(key_of(s.request, s.phase, s.index, s.end_ns, s.batch), s.end_ns,
                          double(s.duration_ns()));
        });
        return;
    }
    // ITL: consecutive tokens of one request, in token order.
    trace::for_index_stoppable(order.size(), stop_, [&](std::size_t i) {
        if (i == 0) return;
        const trace::Step& prev = steps[order[i - 1]];
        const trace::Step& s = steps[order[i]];
        // Iterations are no tokens (metrics.h counts ITL the same way): in a joined run
        // their gaps would read as a request 0.
        if (prev.request != s.request || warm[order[i]] || s.is_iteration()) return;
        add_keyed(key_of(s.request, s.phase, s.index, s.end_ns, s.batch), s.end_ns,
                  double(s.end_ns - prev.end_ns));
    });
}

void HeatmapSamples::assign_keyed_rows(const HeatmapSpec& spec) {
    stop_.throw_if_stopped();
    std::vector<std::int64_t> distinct = keys_;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (std::int64_t key : distinct) {
        if (spec.rows == HeatmapRows::Request)
            labels_.push_back(request_row_label(key));
        else if (spec.rows == HeatmapRows::Phase)
            labels_.emplace_back(trace::to_string(static_cast<Phase>(key)));
        else if (spec.rows == HeatmapRows::Concurrency)
            labels_.push_back(concurrency_label(key));
        else if (spec.rows == HeatmapRows::Batch)
            labels_.push_back(batch_row_label(key));
        else
            labels_.push_back(position_label(key, spec));
    }
    rows_.reserve(keys_.size());
    trace::for_each_stoppable(keys_, stop_, [&](std::int64_t key) {
        auto it = std::lower_bound(distinct.begin(), distinct.end(), key);
        rows_.push_back(static_cast<std::uint32_t>(it - distinct.begin()));
    });
    keys_.clear();
    keys_.shrink_to_fit();
}

}  // namespace tokenscope::analysis
