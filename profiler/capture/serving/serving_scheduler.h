#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "capture/serving/serving_config.h"

namespace tokenscope::capture {

// One request as the serving model tracks it.
struct ServingRequest {
    std::int64_t id = 0;
    std::int32_t tenant = 0;
    std::int64_t arrival_ns = 0;
    std::int64_t prompt = 0;
    std::int64_t output = 0;
    std::int64_t prefilled = 0;  // prompt tokens in the KV cache
    std::int64_t emitted = 0;    // output tokens so far
    std::int64_t prefill_start_ns = -1;
    std::int64_t first_token_ns = 0;
    std::int64_t last_emit_ns = 0;
    std::int64_t done_ns = 0;
};

// A sequence's part of one iteration: `tokens` prompt tokens (a prefill or a chunk
// of one) or, with prefill finished, one decode token.
struct ScheduledSlice {
    std::size_t request = 0;  // index into the request vector
    std::int64_t tokens = 1;
    bool prefill = false;
};

// Continuous batching (docs/sweeps.md, Serving model): every iteration each running sequence
// gets its decode token, unfinished prompts (chunked prefill) their next chunk, then
// waiting requests are admitted while fewer than max_num_seqs run and the token
// budget lasts. Without chunked prefill a prompt is admitted whole or waits (an idle
// engine takes one anyway, so a prompt over the budget cannot block forever).
class ServingScheduler {
  public:
    explicit ServingScheduler(const ServingConfig& config);

    void enqueue(std::size_t request, std::int32_t tenant);
    std::vector<ScheduledSlice> next_batch(std::vector<ServingRequest>& requests);
    // Removes a finished request from the running set.
    void retire(std::size_t request);

    std::size_t running() const { return running_.size(); }
    std::size_t waiting() const;
    const std::vector<double>& shares() const { return shares_; }
    void set_shares(std::vector<double> shares) { shares_ = std::move(shares); }

  private:
    bool try_admit(std::int32_t tenant, std::int64_t cap, std::vector<ServingRequest>& requests,
                   std::vector<ScheduledSlice>& out);
    std::int32_t earliest_tenant(const std::vector<ServingRequest>& requests) const;
    void admit_by_share(std::vector<ServingRequest>& requests, std::vector<ScheduledSlice>& out);

    ServingConfig config_;
    std::vector<std::deque<std::size_t>> waiting_;  // per tenant, in arrival order
    std::vector<std::size_t> running_;
    std::vector<double> shares_;
    std::int64_t budget_ = 0;  // left in the iteration being formed
};

// The dynamic policy's rescale: share[c] * clamp(p95_over_sla[c], 0.5, 2.0), then
// normalised to sum 1. The ratio is P95 / SLA, not SLA / P95: a class whose P95 TTFT
// is over its SLA must gain share (an earlier design said the inverse, which
// would starve the class that misses). A ratio <= 0 or NaN (no SLA, no first token in
// the last minute) keeps that class's share before normalising.
std::vector<double> rescale_shares(std::vector<double> shares,
                                   const std::vector<double>& p95_over_sla);

}  // namespace tokenscope::capture
