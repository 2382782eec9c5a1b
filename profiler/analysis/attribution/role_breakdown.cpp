#include "role_breakdown.h"

#include <algorithm>
#include <limits>

namespace tokenscope::analysis {
namespace {

struct RoleWindow {
    std::int64_t start = 0, end = 0;
    std::size_t step = 0;
};

// The steps' windows by start, with the latest end so far: a GPU operation starting at
// t lies in windows at or before the last one starting by t, and the walk back stops
// where no earlier window reaches past t (one or two looks when windows do not overlap).
class WindowIndex {
  public:
    explicit WindowIndex(const std::vector<trace::Step>& steps) {
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (steps[i].end_ns > steps[i].start_ns)
                windows_.push_back({steps[i].start_ns, steps[i].end_ns, i});
        std::sort(windows_.begin(), windows_.end(),
                  [](const RoleWindow& a, const RoleWindow& b) { return a.start < b.start; });
        std::int64_t reach = std::numeric_limits<std::int64_t>::min();
        for (const RoleWindow& w : windows_) reach_.push_back(reach = std::max(reach, w.end));
    }

    template <typename Fn>
    void for_containing(std::int64_t t, Fn&& fn) const {
        auto after =
            std::upper_bound(windows_.begin(), windows_.end(), t,
                             [](std::int64_t v, const RoleWindow& w) { return v < w.start; });
        for (auto j = static_cast<std::size_t>(after - windows_.begin()); j-- > 0;) {
            if (reach_[j] <= t) break;
            if (windows_[j].end > t) fn(windows_[j]);
        }
    }

  private:
    std::vector<RoleWindow> windows_;
    std::vector<std::int64_t> reach_;
};

}  // namespace

std::vector<PhaseRoles> phase_roles(const std::vector<trace::Step>& steps,
                                    const std::vector<RoleTimes>& times) {
    std::vector<PhaseRoles> out;
    for (trace::Phase phase :
         {trace::Phase::Prefill, trace::Phase::Decode, trace::Phase::Iteration}) {
        PhaseRoles p;
        p.phase = phase;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].phase != phase) continue;
            ++p.steps;
            for (std::size_t r = 0; r < kKernelRoleCount; ++r) p.total.ns[r] += times[i].ns[r];
        }
        if (p.steps == 0) continue;
        for (std::size_t r = 0; r < kKernelRoleCount; ++r)
            p.mean_ns[r] = static_cast<double>(p.total.ns[r]) / static_cast<double>(p.steps);
        out.push_back(p);
    }
    return out;
}

std::int64_t RoleTimes::total() const {
    std::int64_t sum = 0;
    for (std::int64_t v : ns) sum += v;
    return sum;
}

struct RoleAccumulator::State {
    explicit State(const trace::RunData& r) : run(r), windows(r.steps), roles(r) {
        out.steps.resize(r.steps.size());
    }
    const trace::RunData& run;
    const WindowIndex windows;
    KernelRoles roles;
    RoleBreakdown out;
};

RoleAccumulator::RoleAccumulator(const trace::RunData& run)
    : state_(std::make_unique<State>(run)) {}

RoleAccumulator::~RoleAccumulator() = default;

void RoleAccumulator::add(const trace::Activity& a) {
    State& s = *state_;
    const std::optional<KernelRole> role = s.roles.of(a);
    if (!role || a.end_ns < a.start_ns) return;
    const auto r = static_cast<std::size_t>(*role);
    s.out.run.ns[r] += a.duration_ns();
    s.windows.for_containing(a.start_ns, [&](const RoleWindow& w) {
        s.out.steps[w.step].ns[r] += std::min(a.end_ns, w.end) - a.start_ns;
    });
}

RoleBreakdown RoleAccumulator::finish() {
    State& s = *state_;
    s.out.phases = phase_roles(s.run.steps, s.out.steps);
    return std::move(s.out);
}

RoleBreakdown role_breakdown(const trace::RunData& run, const trace::StopToken& stop) {
    RoleAccumulator roles(run);
    trace::for_each_stoppable(run.activities, stop,
                              [&](const trace::Activity& a) { roles.add(a); });
    return roles.finish();
}

}  // namespace tokenscope::analysis
