#pragma once

#include <cstdint>
#include <vector>

#include "distribution.h"
#include "trace/run_data.h"

namespace tokenscope::analysis {

// Warm-up exclusion (docs/metrics.md, Warm-up exclusion). `warmup_requests`: the first W requests
// by arrival (failed or not) are left out of every metric, their tokens included. `warmup_steps`:
// the first W steps of each request (by index; for iteration runs the first W iterations) are left
// out of `itl` and `step`; an ITL sample belongs to the later of its two tokens.
struct MetricsOptions {
    std::size_t warmup_requests = 0;
    std::size_t warmup_steps = 0;
};

// All times in ns. Failed requests are excluded from every metric and counted.
struct RunMetrics {
    Distribution ttft, tpot, itl, e2e, step;
    // Output tokens of the measured requests / (last done - first arrival); 0 when
    // there are no measured requests or that span is not positive.
    double throughput_tok_s = 0;

    std::int64_t requests = 0;         // measured: not warm-up, not failed
    std::int64_t failed_requests = 0;  // among the non-warm-up requests
    std::int64_t warmup_requests = 0;  // excluded as warm-up
    std::int64_t output_tokens = 0;    // of the measured requests
    std::int64_t steps = 0;            // steps in `step`
    std::int64_t tpot_undefined = 0;   // measured requests with output_len <= 1

    // The samples behind the distributions, in arrival / (request, index) order.
    std::vector<double> ttft_ns, tpot_ns, itl_ns, e2e_ns, step_ns;
};

RunMetrics compute_metrics(const trace::RunData& run, const MetricsOptions& options = {});

}  // namespace tokenscope::analysis
