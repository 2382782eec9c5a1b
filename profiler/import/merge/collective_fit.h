#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::import::merge {

// One rank's collective kernels: end times by kernel name, each sorted.
using CollectiveEnds = std::unordered_map<std::string, std::vector<std::int64_t>>;
CollectiveEnds collective_ends(const trace::RunData& run, const trace::StopToken& stop);

struct CollectiveFit {
    std::int64_t offset_ns = 0;  // add to the other rank's times
    std::int64_t matched = 0;    // ends paired within the tolerance
    double rms_ns = 0.0;
    double max_ns = 0.0;
};

// Two ends of the same collective on two ranks count as one only this close after
// alignment: NCCL kernels of one collective end within microseconds of each other,
// while an alignment off by one iteration misses by the iteration's jitter.
inline constexpr std::int64_t kMatchToleranceNs = 50'000;

// The offset that lines the most of `other`'s collective ends up with `ref`'s ends
// of the same name (ties: the smaller misfit, then the smaller offset), refined to the
// median of the pairs' differences. matched = 0 when the ranks share no collective.
CollectiveFit fit_collectives(const CollectiveEnds& ref, const CollectiveEnds& other,
                              const trace::StopToken& stop);
// The misfit of a given offset (start-time alignment checked against the collectives).
CollectiveFit misfit_at(const CollectiveEnds& ref, const CollectiveEnds& other,
                        std::int64_t offset_ns);

}  // namespace tokenscope::import::merge
