#pragma once

#include <optional>

#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// P95 over kernels of their launch delay (the verdict's CPU-bound rule, docs/attribution.md,
// Verdicts): kernel start minus the later of its API call's start (same correlation id) and the end
// of the work queued before it on its stream. nullopt when no kernel has a traced call. Throws
// trace::Cancelled once `stop` is requested.
std::optional<double> launch_delay_p95(const trace::RunData& run, const trace::StopToken& stop);

}  // namespace tokenscope::analysis
