#include "diff.h"

#include <algorithm>
#include <span>
#include <tuple>

namespace tokenscope::analysis {
namespace {

constexpr std::array<std::string_view, 5> kDiffMetricNames = {"ttft", "tpot", "itl", "e2e", "step"};

StatDelta stat_delta(double a, double b) {
    StatDelta s{a, b, b - a, std::nullopt};
    if (a != 0) s.delta_pct = 100.0 * (b - a) / a;
    return s;
}

MetricDiff metric_diff(std::string_view name, std::vector<double> a, std::vector<double> b,
                       double alpha) {
    MetricDiff m;
    m.name = name;
    m.test = mann_whitney_u(a, b);
    m.significant = m.test.p_value < alpha;  // false for NaN (an empty side)
    m.a = summarize(a);
    m.b = summarize(b);
    m.mean = stat_delta(m.a.mean, m.b.mean);
    m.p50 = stat_delta(m.a.p50, m.b.p50);
    m.p90 = stat_delta(m.a.p90, m.b.p90);
    m.p95 = stat_delta(m.a.p95, m.b.p95);
    m.p99 = stat_delta(m.a.p99, m.b.p99);
    return m;
}

std::array<MetricDiff, 5> metric_diffs(const trace::RunData& a, const trace::RunData& b,
                                       const DiffOptions& options, const trace::StopToken& stop) {
    RunMetrics ma = compute_metrics(a, options.metrics);
    stop.throw_if_stopped();
    RunMetrics mb = compute_metrics(b, options.metrics);
    const std::array<std::vector<double>*, 5> sa = {&ma.ttft_ns, &ma.tpot_ns, &ma.itl_ns,
                                                    &ma.e2e_ns, &ma.step_ns};
    const std::array<std::vector<double>*, 5> sb = {&mb.ttft_ns, &mb.tpot_ns, &mb.itl_ns,
                                                    &mb.e2e_ns, &mb.step_ns};
    std::array<MetricDiff, 5> out;
    for (std::size_t i = 0; i < out.size(); ++i) {
        stop.throw_if_stopped();
        out[i] =
            metric_diff(kDiffMetricNames[i], std::move(*sa[i]), std::move(*sb[i]), options.alpha);
    }
    return out;
}

NameDiff name_diff(std::string_view name, const NameStats* a, const NameStats* b) {
    NameDiff d;
    d.name = std::string(name);
    d.in_a = a != nullptr && a->count > 0;
    d.in_b = b != nullptr && b->count > 0;
    if (d.in_a) d.a = *a;
    if (d.in_b) d.b = *b;
    d.count_delta = d.b.count - d.a.count;
    d.total_delta_ns = d.b.total_ns - d.a.total_ns;
    d.mean_delta_ns = d.b.mean_ns - d.a.mean_ns;
    d.p95_delta_ns = d.b.p95_ns - d.a.p95_ns;
    return d;
}

// Names of one activity kind aligned by text: B's ids go through the text to A's ids.
// A run's statistics of one kind: handed in (ActivityFigures), or computed.
std::vector<NameStats> stats_of(const trace::RunData& run, const ActivityFigures* given,
                                trace::ActivityKind kind, const trace::StopToken& stop) {
    if (given == nullptr) return name_stats(run, kind, stop);
    return kind == trace::ActivityKind::Kernel ? given->kernels : given->ranges;
}

std::vector<NameDiff> name_diffs(const trace::RunData& a, const trace::RunData& b,
                                 trace::ActivityKind kind, const DiffInputs& inputs,
                                 const trace::StopToken& stop) {
    const std::vector<NameStats> sa = stats_of(a, inputs.figures_a, kind, stop);
    const std::vector<NameStats> sb = stats_of(b, inputs.figures_b, kind, stop);
    const std::vector<std::uint32_t> a_to_b = remap_string_ids(a.strings, b.strings);
    std::vector<NameDiff> out;
    for (std::uint32_t id = 0; id < sa.size(); ++id) {
        if (sa[id].count == 0) continue;
        const std::uint32_t bid = id < a_to_b.size() ? a_to_b[id] : trace::StringTable::kAbsent;
        out.push_back(name_diff(a.strings.str(id), &sa[id], bid < sb.size() ? &sb[bid] : nullptr));
    }
    const std::vector<std::uint32_t> b_to_a = remap_string_ids(b.strings, a.strings);
    for (std::uint32_t id = 0; id < sb.size(); ++id) {
        const std::uint32_t aid = id < b_to_a.size() ? b_to_a[id] : trace::StringTable::kAbsent;
        const bool in_a = aid < sa.size() && sa[aid].count > 0;
        if (sb[id].count > 0 && !in_a)
            out.push_back(name_diff(b.strings.str(id), nullptr, &sb[id]));
    }
    std::sort(out.begin(), out.end(), [](const NameDiff& x, const NameDiff& y) {
        const std::int64_t tx = x.a.total_ns + x.b.total_ns, ty = y.a.total_ns + y.b.total_ns;
        return tx != ty ? tx > ty : x.name < y.name;
    });
    return out;
}

// The steps' attribution: handed in, or computed (one coverage of the run).
std::vector<StepAttribution> steps_of(const trace::RunData& run,
                                      const std::vector<StepAttribution>* given,
                                      const AttributionOptions& options,
                                      const trace::StopToken& stop) {
    if (given != nullptr) return {};
    return attribute_steps(run, options, stop);
}

std::array<CategoryDiff, kCategoryCount> category_diffs(const trace::RunData& a,
                                                        const trace::RunData& b,
                                                        const AttributionOptions& options,
                                                        const DiffInputs& inputs,
                                                        const trace::StopToken& stop) {
    std::array<CategoryDiff, kCategoryCount> out;
    for (std::size_t c = 0; c < kCategoryCount; ++c) out[c].category = kCategories[c];
    const std::vector<StepAttribution> computed_a = steps_of(a, inputs.steps_a, options, stop);
    for (const StepAttribution& s : inputs.steps_a ? *inputs.steps_a : computed_a)
        for (std::size_t c = 0; c < kCategoryCount; ++c) out[c].a_ns += s.assigned[c];
    const std::vector<StepAttribution> computed_b = steps_of(b, inputs.steps_b, options, stop);
    for (const StepAttribution& s : inputs.steps_b ? *inputs.steps_b : computed_b)
        for (std::size_t c = 0; c < kCategoryCount; ++c) out[c].b_ns += s.assigned[c];
    for (auto& c : out) c.delta_ns = c.b_ns - c.a_ns;
    return out;
}

using StepKey = std::tuple<std::int64_t, std::int32_t, std::int64_t>;  // request, index, ns

std::vector<StepKey> step_keys(const trace::RunData& run) {
    std::vector<StepKey> keys;
    keys.reserve(run.steps.size());
    for (const auto& s : run.steps) keys.emplace_back(s.request, s.index, s.duration_ns());
    std::sort(keys.begin(), keys.end());
    return keys;
}

void align_steps(const trace::RunData& a, const trace::RunData& b, RunDiff& out) {
    const std::vector<StepKey> ka = step_keys(a), kb = step_keys(b);
    std::size_t i = 0, j = 0;
    while (i < ka.size() && j < kb.size()) {
        const auto [ra, ia, da] = ka[i];
        const auto [rb, ib, db] = kb[j];
        if (std::tie(ra, ia) < std::tie(rb, ib)) {
            ++out.steps_only_a, ++i;
        } else if (std::tie(rb, ib) < std::tie(ra, ia)) {
            ++out.steps_only_b, ++j;
        } else {
            out.steps.push_back({ra, ia, da, db});
            ++i, ++j;
        }
    }
    out.steps_only_a += ka.size() - i;
    out.steps_only_b += kb.size() - j;
}

}  // namespace

std::vector<std::uint32_t> remap_string_ids(const trace::StringTable& from,
                                            const trace::StringTable& to) {
    std::vector<std::uint32_t> map(from.size(), trace::StringTable::kAbsent);
    for (std::uint32_t id = 0; id < from.size(); ++id) map[id] = to.find(from.str(id));
    return map;
}

std::vector<NameStats> name_stats(const trace::RunData& run, trace::ActivityKind kind,
                                  const trace::StopToken& stop) {
    // Counting sort of durations by name id, then one selection per name for its P95.
    std::vector<std::size_t> offset(run.strings.size() + 1, 0);
    trace::for_each_stoppable(run.activities, stop, [&](const trace::Activity& act) {
        if (act.kind == kind) {
            if (act.name + 1 >= offset.size()) offset.resize(act.name + 2, 0);
            ++offset[act.name + 1];
        }
    });
    std::vector<NameStats> stats(offset.size() - 1);
    for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
    std::vector<double> durations(offset.back());
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    trace::for_each_stoppable(run.activities, stop, [&](const trace::Activity& act) {
        if (act.kind != kind) return;
        durations[next[act.name]++] = static_cast<double>(act.duration_ns());
        stats[act.name].total_ns += act.duration_ns();
    });
    trace::for_index_stoppable(stats.size(), stop, [&](std::size_t id) {
        const std::size_t n = offset[id + 1] - offset[id];
        if (n == 0) return;
        stats[id].count = static_cast<std::int64_t>(n);
        stats[id].mean_ns = static_cast<double>(stats[id].total_ns) / static_cast<double>(n);
        stats[id].p95_ns = percentile(std::span(durations).subspan(offset[id], n), 95.0);
    });
    return stats;
}

RunDiff diff_runs(const trace::RunData& a, const trace::RunData& b, const DiffOptions& options,
                  const trace::StopToken& stop) {
    return diff_runs(a, b, options, DiffInputs{}, stop);
}

RunDiff diff_runs(const trace::RunData& a, const trace::RunData& b, const DiffOptions& options,
                  const DiffInputs& inputs, const trace::StopToken& stop) {
    RunDiff out;
    stop.throw_if_stopped();
    out.metrics = metric_diffs(a, b, options, stop);
    out.kernels = name_diffs(a, b, trace::ActivityKind::Kernel, inputs, stop);
    out.ranges = name_diffs(a, b, trace::ActivityKind::Range, inputs, stop);
    out.categories = category_diffs(a, b, options.attribution, inputs, stop);
    stop.throw_if_stopped();
    align_steps(a, b, out);
    out.iterations = diff_iterations(a, b, options.alpha, stop,
                                     inputs.figures_a ? &inputs.figures_a->window_times : nullptr,
                                     inputs.figures_b ? &inputs.figures_b->window_times : nullptr);
    if (options.heatmap) {
        out.heatmap_a =
            inputs.heatmap_a ? *inputs.heatmap_a : compute_heatmap(a, *options.heatmap, stop);
        out.heatmap_b =
            inputs.heatmap_b ? *inputs.heatmap_b : compute_heatmap(b, *options.heatmap, stop);
        judge_against(*out.heatmap_b, *out.heatmap_a);  // B against A's SLA
        stop.throw_if_stopped();
        out.heatmap = diff_heatmaps(*out.heatmap_a, *out.heatmap_b);
    }
    return out;
}

}  // namespace tokenscope::analysis
