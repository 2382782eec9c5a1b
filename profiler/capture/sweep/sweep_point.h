#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "capture/capture_config.h"
#include "capture/serving/serving_config.h"
#include "store/run_writer.h"
#include "trace/progress.h"

namespace tokenscope::capture {

// A sweep point's parameters by name, as typed ("batch" -> "8", "strategy" ->
// "beam:4"). Names: preset, gpu, batch, prompt, tokens, strategy (greedy, topk[:K],
// beam[:K], speculative[:DRAFT_LAYERS[:GAMMA]]), acceptance, seed; serving model:
// qps, arrival (poisson:RATE, gamma:RATE:BURSTINESS, closed:CONCURRENCY),
// concurrency, burstiness, max-num-seqs, token-budget, chunked-prefill (on/off),
// length-spread, duration (seconds, or with s/m/h), policy (fcfs, static, dynamic),
// tenants (NAME:WEIGHT:SHARE:TTFT_MS:TPOT_MS, comma-separated), summary (on, off, or
// requests: neither kernels nor token steps).
using PointParams = std::map<std::string, std::string>;

// Every name above; anything else is a typo.
const std::vector<std::string>& point_param_names();

// What one run of a point does: a decode run of a backend, or the serving model
// (any of qps, arrival, concurrency given) with the same shape and GPU.
struct PointConfig {
    CaptureConfig capture;
    std::optional<ServingConfig> serving;
};

// Throws std::invalid_argument naming the parameter and the problem.
PointConfig resolve_point(const PointParams& params);
std::int64_t parse_duration_ns(const std::string& text);  // "200ms", "1.5s", "10m", "50us"

// Writes one run of the point through `writer` (finished, or abandoned on failure).
// The serving model runs in-process; decode points go through the backend registry.
void run_point(const std::string& backend, const PointConfig& config, store::RunWriter& writer,
               const trace::ProgressFn& progress);

}  // namespace tokenscope::capture
