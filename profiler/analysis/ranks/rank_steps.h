#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/category.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// One rank in one step (docs/engine-traces.md, Several GPUs and ranks).
struct RankInStep {
    std::int32_t rank = -1;
    StepAttribution attribution;  // the step's window over this rank's lanes only
    // Time a collective (NCCL kernel) or peer copy runs on this rank's GPUs, and of it
    // the time a computation (any other kernel) also runs there.
    std::int64_t comm_ns = 0;
    std::int64_t overlap_ns = 0;
    std::int64_t lateness_ns = 0;  // see StragglerBasis
    double overlap_share() const {
        return comm_ns > 0 ? static_cast<double>(overlap_ns) / static_cast<double>(comm_ns) : 0.0;
    }
};

// How lateness is measured. Collectives: the k-th collective kernel of the step on
// each rank is one collective; it starts when that rank reaches it, so a rank's
// lateness is the sum over the step's collectives of its start minus the earliest
// rank's start (the time the others waited for it). GpuEnd, when fewer than two
// ranks ran a collective in the step: the end of the rank's last GPU work in the
// step minus the earliest such end.
enum class StragglerBasis : std::uint8_t { Collectives, GpuEnd };
std::string_view to_string(StragglerBasis basis);

struct StepRanks {
    std::size_t step = 0;          // index into run.steps
    std::int32_t straggler = -1;   // the latest rank; -1 when no rank is late
    std::int64_t lateness_ns = 0;  // the straggler's lateness
    StragglerBasis basis = StragglerBasis::GpuEnd;
    std::vector<RankInStep> ranks;  // in rank order
};

// The distinct ranks of the run's lanes (Lane::rank >= 0), ascending.
std::vector<std::int32_t> run_ranks(const trace::RunData& run);

// One entry per run.steps[i] when the run has two or more ranks; empty otherwise.
// Throws trace::Cancelled once `stop` is requested.
std::vector<StepRanks> rank_steps(const trace::RunData& run, const AttributionOptions& options = {},
                                  const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
