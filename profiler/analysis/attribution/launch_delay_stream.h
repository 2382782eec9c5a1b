#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "store/duration_histogram.h"
#include "trace/activity.h"

namespace tokenscope::analysis {

// The P95 of launch delays, and how far it may be from the exact one (a fraction of it).
struct LaunchDelayP95 {
    std::optional<double> ns;
    double relative_error = 0;
};

// launch_delay_p95 (launch_delay.h, the rule of docs/attribution.md, Verdicts) over a run
// handed over a stretch of time at a time: a run left in its file, read slice by slice
// (stored_analysis.h); stored_analysis_test holds the two equal on real traces. Memory:
// some 70 bytes per traced call of the last kLaunchHorizonNs (older ones can match no
// kernel still to come, and are forgotten), and the delays; past `exact_delays` delays they
// go into a DurationHistogram instead, and the P95 then carries its relative error.
class LaunchDelayStream {
  public:
    static constexpr std::size_t kExactDelays = std::size_t{1} << 24;

    // `kernels`: how many kernels will come at most (the run's totals), so that the exact
    // delays are allocated once rather than grown by doubling (which held both copies).
    explicit LaunchDelayStream(std::size_t exact_delays = kExactDelays, std::size_t kernels = 0);

    // One stretch [t0, t1) of the run, stretches in time order: `acts` grouped by lane,
    // lane_ends[i] the end of the i-th group, each group by start. Only the activities that
    // start at t0 or later count (a group may begin with ones carried from before).
    void add(std::span<const trace::Activity> acts, std::span<const std::size_t> lane_ends,
             std::int64_t t0);
    // Reorders the exact delays: the last call.
    LaunchDelayP95 take_p95();
    // Calls and early kernels' correlations held now (what the horizon bounds).
    std::size_t held() const { return calls_.size() + early_.size(); }

  private:
    struct Call {
        std::int64_t start = 0;
        bool measured = false;         // its first kernel has been measured
        std::uint64_t seen = 0;        // the stretch first_start belongs to (1 + its number)
        std::int64_t first_start = 0;  // of its kernels in that stretch
    };
    void forget_before(std::int64_t t0);
    void add_calls(std::span<const trace::Activity> acts, std::int64_t t0);
    void find_first_kernels(std::span<const trace::Activity> acts, std::int64_t t0);
    void measure(std::span<const trace::Activity> acts, std::int64_t t0);
    Call* call_of(std::uint32_t correlation);
    void record(std::int64_t delay_ns, std::uint64_t n = 1);

    std::vector<std::int64_t> busy_until_ = std::vector<std::int64_t>(
        std::size_t{1} << 16, std::numeric_limits<std::int64_t>::min());  // per lane id
    // The traced calls by correlation id (ids are sparse: merged ranks' sit far apart).
    std::unordered_map<std::uint32_t, Call> calls_;
    std::uint32_t last_correlation_ = 0;  // call_of's last answer: a graph's kernels share one
    Call* last_call_ = nullptr;
    // Kernels whose call starts in a later stretch (a clock step), by correlation, their
    // starts: measured as 0 if their call comes, as launch_delay_p95 does.
    std::unordered_map<std::uint32_t, std::vector<std::int64_t>> early_;
    // What each stretch added to calls_ and early_, oldest first, and the latest start
    // among it: forgotten once that is past the horizon.
    struct Added {
        std::int64_t latest = std::numeric_limits<std::int64_t>::min();
        std::vector<std::uint32_t> calls, early;
    };
    std::deque<Added> added_;
    std::uint64_t stretch_ = 0;
    std::size_t exact_delays_;
    std::vector<double> exact_;
    store::DurationHistogram histogram_;
    bool folded_ = false;  // the delays are in histogram_
};

}  // namespace tokenscope::analysis
