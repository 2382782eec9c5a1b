#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/kernel_role.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// GPU time in ns per kernel role, indexed by static_cast<size_t>(KernelRole).
struct RoleTimes {
    std::array<std::int64_t, kKernelRoleCount> ns{};

    std::int64_t operator[](KernelRole r) const { return ns[static_cast<std::size_t>(r)]; }
    std::int64_t total() const;
};

struct PhaseRoles {
    trace::Phase phase = trace::Phase::Decode;
    std::int64_t steps = 0;
    RoleTimes total;                                 // summed over the phase's steps
    std::array<double, kKernelRoleCount> mean_ns{};  // total / steps
};

// Where the GPU's time went by role (docs/engine-traces.md, Kernel roles). GPU time is
// the sum of GPU operations' durations (kernels, memcpy, memset), not busy time: two
// kernels running at once on two streams both count, which is what comparing roles
// across engines needs.
struct RoleBreakdown {
    // Per step (run.steps[i]): the operations that start inside the step's window
    // [start_ns, end_ns), each cut at the window's end. An operation counts in every
    // window it starts in, so overlapping windows may share it.
    std::vector<RoleTimes> steps;
    std::vector<PhaseRoles> phases;  // phases that occur, in enum order
    RoleTimes run;                   // every GPU operation of the run, whole, steps or not
};

// Throws trace::Cancelled once `stop` is requested.
RoleBreakdown role_breakdown(const trace::RunData& run, const trace::StopToken& stop = {});

// The phases of RoleBreakdown from its per-step times (`times[i]` run.steps[i]'s).
std::vector<PhaseRoles> phase_roles(const std::vector<trace::Step>& steps,
                                    const std::vector<RoleTimes>& times);

// role_breakdown over activities handed over one at a time, each once, in any order: a
// run left in its file is read slice by slice (stored_analysis.h). `run` gives the
// steps, lanes and names, and outlives the accumulator.
class RoleAccumulator {
  public:
    explicit RoleAccumulator(const trace::RunData& run);
    ~RoleAccumulator();
    RoleAccumulator(const RoleAccumulator&) = delete;
    RoleAccumulator& operator=(const RoleAccumulator&) = delete;

    void add(const trace::Activity& a);
    RoleBreakdown finish();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace tokenscope::analysis
