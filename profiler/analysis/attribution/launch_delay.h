#pragma once

#include <cstdint>
#include <optional>

#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// A kernel and its API call further apart than this are not matched: the kernel's delay is
// not measured. No real launch waits that long (a stream's queue holds about a thousand
// launches), and the bound lets a run read slice by slice forget a call once it is this far
// behind (LaunchDelayStream), so its memory follows the calls of the last 10 s, not all.
inline constexpr std::int64_t kLaunchHorizonNs = 10'000'000'000;

// |kernel start - call start| within kLaunchHorizonNs.
inline bool within_launch_horizon(std::int64_t kernel_start, std::int64_t call_start) {
    // In uint64: the distance between any two int64 values fits, their difference may not.
    const auto k = static_cast<std::uint64_t>(kernel_start);
    const auto c = static_cast<std::uint64_t>(call_start);
    const std::uint64_t gap = kernel_start > call_start ? k - c : c - k;
    return gap <= static_cast<std::uint64_t>(kLaunchHorizonNs);
}

// P95 over kernels of their launch delay (the verdict's CPU-bound rule, docs/attribution.md,
// Verdicts): kernel start minus the later of its API call's start (same correlation id) and the end
// of the work queued before it on its stream. Kernels further than kLaunchHorizonNs from their
// call are left out. nullopt when no kernel has a traced call. Throws trace::Cancelled once
// `stop` is requested.
std::optional<double> launch_delay_p95(const trace::RunData& run, const trace::StopToken& stop);

}  // namespace tokenscope::analysis
