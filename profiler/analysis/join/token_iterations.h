#pragma once

#include <cstdint>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::analysis {

// A joined run (a load generator's requests over an engine's trace, docs/engine-traces.md, Client
// and server together) holds two kinds of steps: the engine's iterations and the client's token
// emissions. A token belongs to the iteration that ended last at or before its emission (its step's
// end_ns), provided the emission lags that end by at most `max_lag_ns`: a token emitted long after
// every iteration found none.
struct TokenIterationOptions {
    std::int64_t max_lag_ns = 50'000'000;  // 50 ms: longer than any network + detokenize hop
};

// One entry per run.steps[i]: the index in run.steps of the token's iteration, or -1
// for iteration steps themselves, tokens that found no iteration and runs without
// iterations. Linear in the steps after one sort of the iteration ends.
std::vector<std::int32_t> token_iterations(const trace::RunData& run,
                                           const TokenIterationOptions& options = {});

// Share (0..1) of the token steps that found an iteration; 0 when there are none.
double matched_token_share(const trace::RunData& run, const std::vector<std::int32_t>& links);

}  // namespace tokenscope::analysis
