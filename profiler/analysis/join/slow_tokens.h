#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/category.h"
#include "token_iterations.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// A kernel's time inside one iteration (clipped to it), grouped by name.
struct TokenKernel {
    std::string name;  // full; short_kernel_name() for tables
    std::int64_t ns = 0;
    Category category = Category::GpuCompute;
};

// One token of a joined run (docs/engine-traces.md, Client and server together) with what made it
// late: its ITL, the iteration that produced it (token_iterations.h), that iteration's batch, its
// attribution and its top kernels. In a run without iterations (our own decode runs) the token's
// own step is the window its kernels ran in.
struct SlowToken {
    std::size_t step = 0;  // index in run.steps
    std::int64_t request = 0;
    std::int32_t index = 0;
    std::int64_t itl_ns = 0;
    std::int64_t emitted_ns = 0;
    std::int32_t iteration_step = -1;  // index in run.steps of its iteration; -1 none
    std::int32_t iteration = -1;       // that iteration's number (Step::index)
    std::int64_t window_start_ns = 0;  // the interval attributed: iteration or own step
    std::int64_t window_end_ns = 0;
    trace::BatchComposition batch{};
    StepAttribution attribution{};     // of the window; all zero without one
    std::vector<TokenKernel> kernels;  // top kernels by time in the window, descending

    bool has_window() const { return window_end_ns > window_start_ns; }
    // The category that took most of the window, and its share (0..1).
    Category dominant() const;
    double dominant_share() const;
};

struct SlowTokenOptions {
    std::size_t count = 10;       // the N slowest; 0 = every token
    std::size_t top_kernels = 3;  // per token
    // Only this request's tokens, in token order (the GUI's per-request list).
    std::optional<std::int64_t> request = std::nullopt;
    TokenIterationOptions link{};
    AttributionOptions attribution{};
};

// A joined run holds both token steps (request != 0) and iteration steps: its views
// show a request track over the iterations and default to ITL by request.
bool is_joined_run(const trace::RunData& run);

// The slowest token (by ITL, `itl` as token_itl_ns gives it) of `request` emitted in
// [t0, t1): what a heatmap cell of ITL by request leads to. -1 when there is none.
std::int32_t slowest_token_in(const trace::RunData& run, const std::vector<std::int64_t>& itl,
                              std::int64_t request, std::int64_t t0, std::int64_t t1);

// Per run.steps[i]: the token's ITL (emission minus the previous emission of its
// request, as metrics.h counts ITL), -1 for first tokens and iteration steps.
std::vector<std::int64_t> token_itl_ns(const trace::RunData& run);

// The slowest tokens by ITL, slowest first (ties by step order), each with its
// iteration, batch, attribution and top kernels. Throws trace::Cancelled on stop.
std::vector<SlowToken> slowest_tokens(const trace::RunData& run,
                                      const SlowTokenOptions& options = {},
                                      const trace::StopToken& stop = {});

// The same facts for chosen token steps (indices into run.steps, in that order), with
// the ITLs and iteration links already at hand (token_itl_ns, token_iterations): what a
// click on one token costs in the GUI. Steps out of range are skipped.
std::vector<SlowToken> explain_tokens(const trace::RunData& run,
                                      const std::vector<std::size_t>& steps,
                                      const std::vector<std::int64_t>& itl,
                                      const std::vector<std::int32_t>& links,
                                      const SlowTokenOptions& options = {},
                                      const trace::StopToken& stop = {});

// Indices into run.activities of the kernels overlapping [t0, t1): what the GUI
// highlights for a selected iteration.
std::vector<std::size_t> kernels_in(const trace::RunData& run, std::int64_t t0, std::int64_t t1);

// "token 17 of request 42: 183.000 ms; iteration 4711, prefill 6 req 8192 tok,
// 61% gpu_compute in flash_fwd" (the issue's sentence; kernels by their short name).
std::string describe_slow_token(const SlowToken& token);

}  // namespace tokenscope::analysis
