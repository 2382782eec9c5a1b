#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tokenscope::capture {

// How requests arrive (docs/sweeps.md, Serving model): an open loop at a rate (Poisson, or
// gamma inter-arrival times with a burstiness factor: shape 1/burstiness, so 1 is
// Poisson and larger is burstier), or a closed loop that keeps `concurrency`
// requests in flight, each finished request replaced at once.
enum class ArrivalKind : std::uint8_t { Poisson, Gamma, Closed };

struct ArrivalSpec {
    ArrivalKind kind = ArrivalKind::Poisson;
    double rate = 10.0;  // requests/s (open loop)
    double burstiness = 1.0;
    std::int64_t concurrency = 8;  // closed loop
};

// A class of requests with its own SLA. `weight` is its fraction of the arrivals,
// `share` its static share of the per-iteration prefill token budget.
struct TenantClass {
    std::string name = "default";
    double weight = 1.0;
    double share = 1.0;
    std::int64_t sla_ttft_ns = 0;  // 0: no bound
    std::int64_t sla_tpot_ns = 0;
};

// Fcfs: one queue in arrival order. StaticShare: each iteration a class may admit
// prefill tokens up to its share of the budget before the rest is handed out first
// come, first served. DynamicBudget: the same, with every class's share rescaled
// every 5 s by clamp(P95 TTFT over the last minute / SLA, 0.5, 2.0), then normalised:
// a class that misses its SLA gains share, as the scheduling policy must (see
// rescale_shares).
enum class AdmissionPolicy : std::uint8_t { Fcfs, StaticShare, DynamicBudget };

struct ServingConfig {
    ArrivalSpec arrival;
    double duration_s = 60.0;       // no new arrivals after this; every admitted request finishes
    std::int64_t prompt_len = 512;  // tokens
    std::int64_t output_len = 128;  // tokens, the first one from prefill
    // Lengths drawn uniformly from [(1 - spread) L, (1 + spread) L]; 0 keeps them fixed.
    double length_spread = 0.0;
    std::int64_t max_num_seqs = 256;
    std::int64_t token_budget = 8192;  // tokens per iteration, prefill and decode together
    bool chunked_prefill = false;
    std::vector<TenantClass> tenants{TenantClass{}};
    AdmissionPolicy policy = AdmissionPolicy::Fcfs;
    // Keeps requests, token steps and iteration ranges but writes no kernels.
    bool summary = false;
    // Off (summary "requests"): no token steps either, for sweeps whose report reads
    // only the requests; a 60 s point at 49 QPS holds 376 k token steps but 3 k requests.
    bool token_steps = true;
    // Host time per iteration outside the kernels (scheduling, sampling bookkeeping).
    std::int64_t iteration_overhead_ns = 200'000;
};

const char* to_string(ArrivalKind kind);
const char* to_string(AdmissionPolicy policy);

}  // namespace tokenscope::capture
