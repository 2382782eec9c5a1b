#include "run_kind.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "analysis/join/slow_tokens.h"

namespace tokenscope::analysis {
namespace {

constexpr std::int64_t kMinColumns = 8;
constexpr std::int64_t kDecodeWindowSteps = 16;

// First start to last end of the activities a kernel heatmap places.
std::int64_t kernel_span(const trace::RunData& run) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        lo = std::min(lo, a.start_ns);
        hi = std::max(hi, a.end_ns);
    }
    // A run whose activities stayed in its file: the same bounds, from its stored totals.
    if (run.in_file)
        for (const auto& cell :
             run.in_file->totals.cells[static_cast<std::size_t>(trace::ActivityKind::Kernel)])
            if (cell.count > 0) {
                lo = std::min(lo, cell.first_start_ns);
                hi = std::max(hi, cell.last_end_ns);
            }
    return hi > lo ? hi - lo : 0;
}

std::int64_t request_span(const trace::RunData& run) {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max();
    std::int64_t hi = std::numeric_limits<std::int64_t>::min();
    for (const auto& r : run.requests) {
        lo = std::min(lo, r.arrival_ns);
        hi = std::max(hi, std::max(r.first_token_ns, r.done_ns));
    }
    return hi > lo ? hi - lo : 0;
}

}  // namespace

RunKind kind_of(const trace::RunInfo& info) {
    switch (info.source) {
        case trace::Source::Model:
        case trace::Source::Cpu:
        case trace::Source::Cuda:
            return RunKind::Decode;
        case trace::Source::Bench:
            return RunKind::Serving;
        case trace::Source::Inject:
        case trace::Source::Nsys:
        case trace::Source::Kineto:
            break;
    }
    return RunKind::Trace;
}

std::string_view to_string(RunKind kind) {
    switch (kind) {
        case RunKind::Decode:
            return "decode";
        case RunKind::Serving:
            return "serving";
        case RunKind::Trace:
            break;
    }
    return "trace";
}

std::int64_t window_for_columns(std::int64_t span_ns, std::int64_t min_columns) {
    if (span_ns <= 0 || min_columns <= 0) return 100'000'000;
    const std::int64_t most = std::max<std::int64_t>(1, span_ns / min_columns);
    std::int64_t best = 1;
    for (std::int64_t decade = 1; decade <= most; decade *= 10)
        for (std::int64_t m : {1, 2, 5})
            if (decade * m <= most) best = decade * m;
    return best;
}

HeatmapSpec default_heatmap_spec(const trace::RunData& run) {
    HeatmapSpec spec;
    // A joined run (client tokens over engine iterations): which requests' tokens were
    // late, and when; a cell leads to the iteration behind its slowest token.
    if (is_joined_run(run)) {
        spec.rows = HeatmapRows::Request;
        spec.metric = HeatmapMetric::Itl;
        spec.window = WindowKind::Time;
        spec.window_size = window_for_columns(request_span(run), kMinColumns);
        return spec;
    }
    switch (kind_of(run.info)) {
        case RunKind::Decode:
            spec.rows = HeatmapRows::Phase;
            spec.metric = HeatmapMetric::StepLatency;
            spec.window = WindowKind::Steps;
            spec.window_size = kDecodeWindowSteps;
            break;
        case RunKind::Trace:
            spec.rows = HeatmapRows::Kernel;
            spec.metric = HeatmapMetric::KernelDuration;
            spec.window = WindowKind::Time;
            spec.window_size = window_for_columns(kernel_span(run), kMinColumns);
            break;
        case RunKind::Serving:
            spec.rows = HeatmapRows::Phase;
            spec.metric = HeatmapMetric::Ttft;
            spec.window = WindowKind::Time;
            spec.window_size = window_for_columns(request_span(run), kMinColumns);
            break;
    }
    return spec;
}

namespace {

std::unordered_set<std::string_view> kernel_names(const trace::RunData& run) {
    std::unordered_set<std::string_view> out;
    std::vector<char> seen(run.strings.size(), 0);
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel || a.name >= seen.size() || seen[a.name])
            continue;
        seen[a.name] = 1;
        out.insert(run.strings.str(a.name));
    }
    return out;
}

}  // namespace

double shared_kernel_name_share(const trace::RunData& a, const trace::RunData& b) {
    const auto na = kernel_names(a), nb = kernel_names(b);
    if (na.empty() || nb.empty()) return 0.0;
    const auto& small = na.size() <= nb.size() ? na : nb;
    const auto& large = na.size() <= nb.size() ? nb : na;
    std::size_t shared = 0;
    for (auto name : small) shared += large.count(name);
    return static_cast<double>(shared) / static_cast<double>(small.size());
}

HeatmapSpec default_compare_spec(const trace::RunData& a, const trace::RunData& b) {
    HeatmapSpec spec = default_heatmap_spec(a);
    if (spec.rows != HeatmapRows::Kernel || kind_of(b.info) != RunKind::Trace) return spec;
    if (shared_kernel_name_share(a, b) >= 0.5) return spec;
    spec.rows = HeatmapRows::Role;
    // Two engines' clocks and pacing differ: time windows from each run's start would
    // put A's third iteration beside B's first. Windows of iterations align by index
    // (one iteration a column, about 16 columns for long runs).
    const std::size_t steps = std::max(a.steps.size(), b.steps.size());
    if (!a.steps.empty() && !b.steps.empty()) {
        spec.window = WindowKind::Steps;
        spec.window_size = static_cast<std::int64_t>(steps <= 32 ? 1 : (steps + 15) / 16);
    }
    return spec;
}

}  // namespace tokenscope::analysis
