#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_role.h"
#include "analysis/metrics/distribution.h"
#include "mann_whitney.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// Comparing the engine iterations of two runs (docs/compare.md, Engine iterations).
// Iterations are the steps with Step::is_iteration(); each phase's are aligned by their
// index within the phase in time order (the k-th prefill iteration of A with the k-th
// of B); phase Iteration (a ProfilerStep, a marker without a batch) counts as decode.

// Where one iteration window's time went, in ns: the GPU's busy time split by kernel
// role and the GPU's idle time, so that roles + idle = the window. GPU operations are
// those that start inside the window, cut at its end (role_breakdown's rule); where
// several run at once, each instant is shared equally among them, so the roles sum to
// the union of GPU activity instead of counting concurrent time twice.
struct WindowTime {
    std::array<double, kKernelRoleCount> role_ns{};
    double idle_ns = 0;
};

// One run's iterations of one phase.
struct IterationSide {
    std::vector<std::size_t> steps;  // indices into RunData::steps, in time order
    Distribution duration;           // of the windows, ns
    WindowTime mean;                 // per-iteration mean over the phase's iterations
};

// One part of the P50 delta: a kernel role's GPU time or the GPU's idle time, per
// iteration (mean), in A and in B.
struct IterationPart {
    std::optional<KernelRole> role;  // nullopt: GPU idle
    double a_ns = 0, b_ns = 0, delta_ns = 0;
};

struct IterationPair {
    std::size_t index = 0;               // k: the k-th iteration of the phase in both runs
    std::size_t a_step = 0, b_step = 0;  // indices into each run's steps
    std::int64_t a_ns = 0, b_ns = 0;     // window durations
};

struct PhaseIterationDiff {
    trace::Phase phase = trace::Phase::Decode;  // Prefill or Decode
    IterationSide a, b;
    std::vector<IterationPair> pairs;                              // min(count A, count B) of them
    double p50_delta_ns = 0, p95_delta_ns = 0, mean_delta_ns = 0;  // B - A
    MannWhitneyResult test;    // A's window durations against B's
    bool significant = false;  // test.p_value < alpha
    // GPU idle first, then the roles in report order; B - A of the per-iteration means,
    // so they sum to mean_delta_ns.
    std::vector<IterationPart> parts;
    // p50_delta_ns - mean_delta_ns: what the mean-based parts leave of the P50 delta
    // (0 with one iteration a side), so parts + rest = the P50 delta.
    double rest_ns = 0;
    // "B's decode iterations are 25.8 ms slower (P50); 24.0 ms of it is GPU idle, 1.8 ms
    // GEMM": the parts above 5 % of the delta, largest first.
    std::string sentence;
};

struct IterationDiff {
    // Prefill, then decode: each phase either run has; none unless both runs have
    // iterations.
    std::vector<PhaseIterationDiff> phases;
    bool empty() const { return phases.empty(); }
};

// B's iterations compared with A's. Throws trace::Cancelled once `stop` is requested.
// `times_a` and `times_b`, when given, are each run's iteration_window_times (read from a
// file: analysis/compare/stored_diff.h); else they are computed from the activities.
IterationDiff diff_iterations(const trace::RunData& a, const trace::RunData& b, double alpha = 0.01,
                              const trace::StopToken& stop = {},
                              const std::vector<WindowTime>* times_a = nullptr,
                              const std::vector<WindowTime>* times_b = nullptr);

// iteration_window_times' rule fed activities in any order, so a run read a stretch of
// time at a time keeps only the operations of the windows still open: once every
// activity starting before t is in, close_before(t) splits the windows ending by t and
// drops their operations.
class WindowTimeStream {
  public:
    explicit WindowTimeStream(const trace::RunData& run);
    ~WindowTimeStream();
    WindowTimeStream(const WindowTimeStream&) = delete;
    WindowTimeStream& operator=(const WindowTimeStream&) = delete;

    void add(const trace::Activity& a);
    void close_before(std::int64_t t);
    // Every window split; one WindowTime per step.
    std::vector<WindowTime> finish();

  private:
    struct State;
    std::unique_ptr<State> state_;
};

// Each step's WindowTime (zeros for a step of no iteration), by the rule above.
std::vector<WindowTime> iteration_window_times(const trace::RunData& run,
                                               const trace::StopToken& stop = {});

// The sentence of a phase's diff from its figures (exposed for tests).
std::string iteration_sentence(const PhaseIterationDiff& d);
// Appended to the sentence when either trace began while its GPU still ran earlier work
// (a "trace_start_backlog" diagnostic): empty otherwise.
std::string backlog_caution(const trace::RunData& a, const trace::RunData& b);

// The parts' display name: "GPU idle" or the role's ("GEMM"); key: "idle" or "gemm".
std::string part_name(const IterationPart& part);
std::string part_key(const IterationPart& part);

}  // namespace tokenscope::analysis
