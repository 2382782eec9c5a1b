#include "iteration_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tokenscope::analysis {
// Named, not anonymous: WindowTimeStream's state holds them.
namespace iteration_windows {

struct IterationWindow {
    std::int64_t start = 0, end = 0;
    std::size_t step = 0;
};

struct IterationGpuOp {
    std::int64_t start = 0, end = 0;
    KernelRole role = KernelRole::Other;
};

// The iteration windows by start with the latest end so far, so the windows holding a
// time t are found by a walk back from the last one starting by t that stops where no
// earlier window reaches past t (role_breakdown's index, kept here for the same rule).
class IterationWindows {
  public:
    explicit IterationWindows(const std::vector<trace::Step>& steps) {
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (steps[i].is_iteration() && steps[i].end_ns > steps[i].start_ns)
                windows_.push_back({steps[i].start_ns, steps[i].end_ns, i});
        std::sort(
            windows_.begin(), windows_.end(),
            [](const IterationWindow& x, const IterationWindow& y) { return x.start < y.start; });
        std::int64_t reach = std::numeric_limits<std::int64_t>::min();
        for (const IterationWindow& w : windows_) reach_.push_back(reach = std::max(reach, w.end));
    }

    template <typename Fn>
    void for_containing(std::int64_t t, Fn&& fn) const {
        auto after =
            std::upper_bound(windows_.begin(), windows_.end(), t,
                             [](std::int64_t v, const IterationWindow& w) { return v < w.start; });
        for (auto j = static_cast<std::size_t>(after - windows_.begin()); j-- > 0;) {
            if (reach_[j] <= t) break;
            if (windows_[j].end > t) fn(windows_[j]);
        }
    }

    const std::vector<IterationWindow>& all() const { return windows_; }

  private:
    std::vector<IterationWindow> windows_;
    std::vector<std::int64_t> reach_;
};

}  // namespace iteration_windows

namespace {

using iteration_windows::IterationGpuOp;
using iteration_windows::IterationWindow;
using iteration_windows::IterationWindows;

// Phase Iteration (a ProfilerStep, a marker without a batch) counts as decode.
trace::Phase aligned_phase(const trace::Step& s) {
    return s.phase == trace::Phase::Prefill ? trace::Phase::Prefill : trace::Phase::Decode;
}

// A sweep over the operations' starts and ends: between two edges, the k operations
// running share the time equally, each 1/k of it to its role; time with none is idle.
WindowTime split_window(const std::vector<IterationGpuOp>& ops, std::int64_t start,
                        std::int64_t end) {
    struct Edge {
        std::int64_t t = 0;
        int delta = 0;
        std::size_t role = 0;
    };
    std::vector<Edge> edges;
    edges.reserve(ops.size() * 2);
    for (const IterationGpuOp& op : ops) {
        edges.push_back({op.start, +1, static_cast<std::size_t>(op.role)});
        edges.push_back({op.end, -1, static_cast<std::size_t>(op.role)});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return x.t < y.t; });
    WindowTime out;
    std::array<int, kKernelRoleCount> running{};
    int total = 0;
    std::int64_t previous = start, busy = 0;
    for (const Edge& e : edges) {
        const std::int64_t dt = e.t - previous;
        if (total > 0 && dt > 0) {
            for (std::size_t r = 0; r < kKernelRoleCount; ++r)
                out.role_ns[r] += static_cast<double>(running[r]) * static_cast<double>(dt) /
                                  static_cast<double>(total);
            busy += dt;
        }
        previous = e.t;
        running[e.role] += e.delta;
        total += e.delta;
    }
    out.idle_ns = static_cast<double>(end - start - busy);
    return out;
}

// The steps of one phase's iterations in time order.
std::vector<std::size_t> phase_steps(const trace::RunData& run, trace::Phase phase) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < run.steps.size(); ++i)
        if (run.steps[i].is_iteration() && aligned_phase(run.steps[i]) == phase) out.push_back(i);
    std::stable_sort(out.begin(), out.end(), [&](std::size_t x, std::size_t y) {
        return run.steps[x].start_ns < run.steps[y].start_ns;
    });
    return out;
}

IterationSide side_of(const trace::RunData& run, std::vector<std::size_t> steps,
                      const std::vector<WindowTime>& times, std::vector<double>& durations) {
    IterationSide side;
    side.steps = std::move(steps);
    durations.clear();
    for (std::size_t i : side.steps) {
        durations.push_back(static_cast<double>(run.steps[i].duration_ns()));
        for (std::size_t r = 0; r < kKernelRoleCount; ++r)
            side.mean.role_ns[r] += times[i].role_ns[r];
        side.mean.idle_ns += times[i].idle_ns;
    }
    if (!side.steps.empty()) {
        const auto n = static_cast<double>(side.steps.size());
        for (double& v : side.mean.role_ns) v /= n;
        side.mean.idle_ns /= n;
    }
    std::vector<double> copy = durations;  // summarize reorders
    side.duration = summarize(copy);
    return side;
}

std::vector<IterationPart> parts_of(const IterationSide& a, const IterationSide& b) {
    std::vector<IterationPart> parts;
    parts.push_back(
        {std::nullopt, a.mean.idle_ns, b.mean.idle_ns, b.mean.idle_ns - a.mean.idle_ns});
    for (KernelRole role : kKernelRoles) {
        const auto r = static_cast<std::size_t>(role);
        parts.push_back(
            {role, a.mean.role_ns[r], b.mean.role_ns[r], b.mean.role_ns[r] - a.mean.role_ns[r]});
    }
    return parts;
}

PhaseIterationDiff phase_diff(const trace::RunData& a, const trace::RunData& b,
                              const std::vector<WindowTime>& ta, const std::vector<WindowTime>& tb,
                              trace::Phase phase, double alpha) {
    PhaseIterationDiff d;
    d.phase = phase;
    std::vector<double> da, db;
    d.a = side_of(a, phase_steps(a, phase), ta, da);
    d.b = side_of(b, phase_steps(b, phase), tb, db);
    for (std::size_t k = 0; k < std::min(d.a.steps.size(), d.b.steps.size()); ++k) {
        const std::size_t i = d.a.steps[k], j = d.b.steps[k];
        d.pairs.push_back({k, i, j, a.steps[i].duration_ns(), b.steps[j].duration_ns()});
    }
    d.test = mann_whitney_u(da, db);
    d.significant = d.test.p_value < alpha;  // false for NaN (an empty side)
    if (d.a.steps.empty() || d.b.steps.empty()) {
        d.sentence = iteration_sentence(d);
        return d;
    }
    d.p50_delta_ns = d.b.duration.p50 - d.a.duration.p50;
    d.p95_delta_ns = d.b.duration.p95 - d.a.duration.p95;
    d.mean_delta_ns = d.b.duration.mean - d.a.duration.mean;
    d.parts = parts_of(d.a, d.b);
    d.rest_ns = d.p50_delta_ns - d.mean_delta_ns;
    d.sentence = iteration_sentence(d) + backlog_caution(a, b);
    return d;
}

bool has_any_iteration(const trace::RunData& run) {
    return std::any_of(run.steps.begin(), run.steps.end(),
                       [](const trace::Step& s) { return s.is_iteration(); });
}

}  // namespace

struct WindowTimeStream::State {
    explicit State(const trace::RunData& run)
        : windows(run.steps), roles(run), ops(run.steps.size()), out(run.steps.size()) {
        by_end = windows.all();
        std::sort(by_end.begin(), by_end.end(),
                  [](const IterationWindow& x, const IterationWindow& y) { return x.end < y.end; });
    }
    IterationWindows windows;
    KernelRoles roles;
    std::vector<std::vector<IterationGpuOp>> ops;
    std::vector<IterationWindow> by_end;  // the windows by end: those still open follow `closed`
    std::size_t closed = 0;
    std::vector<WindowTime> out;
};

WindowTimeStream::WindowTimeStream(const trace::RunData& run)
    : state_(std::make_unique<State>(run)) {}

WindowTimeStream::~WindowTimeStream() = default;

void WindowTimeStream::add(const trace::Activity& act) {
    if (act.end_ns <= act.start_ns) return;
    const std::optional<KernelRole> role = state_->roles.of(act);
    if (!role) return;
    state_->windows.for_containing(act.start_ns, [&](const IterationWindow& w) {
        state_->ops[w.step].push_back({act.start_ns, std::min(act.end_ns, w.end), *role});
    });
}

void WindowTimeStream::close_before(std::int64_t t) {
    auto& s = *state_;
    for (; s.closed < s.by_end.size() && s.by_end[s.closed].end <= t; ++s.closed) {
        const IterationWindow& w = s.by_end[s.closed];
        s.out[w.step] = split_window(s.ops[w.step], w.start, w.end);
        std::vector<IterationGpuOp>().swap(s.ops[w.step]);
    }
}

std::vector<WindowTime> WindowTimeStream::finish() {
    close_before(std::numeric_limits<std::int64_t>::max());
    return std::move(state_->out);
}

std::vector<WindowTime> iteration_window_times(const trace::RunData& run,
                                               const trace::StopToken& stop) {
    WindowTimeStream stream(run);
    trace::for_each_stoppable(run.activities, stop,
                              [&](const trace::Activity& act) { stream.add(act); });
    return stream.finish();
}

IterationDiff diff_iterations(const trace::RunData& a, const trace::RunData& b, double alpha,
                              const trace::StopToken& stop, const std::vector<WindowTime>* times_a,
                              const std::vector<WindowTime>* times_b) {
    IterationDiff out;
    if (!has_any_iteration(a) || !has_any_iteration(b)) return out;
    const std::vector<WindowTime> ta = times_a ? *times_a : iteration_window_times(a, stop);
    const std::vector<WindowTime> tb = times_b ? *times_b : iteration_window_times(b, stop);
    for (trace::Phase phase : {trace::Phase::Prefill, trace::Phase::Decode}) {
        stop.throw_if_stopped();
        PhaseIterationDiff d = phase_diff(a, b, ta, tb, phase, alpha);
        if (!d.a.steps.empty() || !d.b.steps.empty()) out.phases.push_back(std::move(d));
    }
    return out;
}

}  // namespace tokenscope::analysis
