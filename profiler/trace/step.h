#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tokenscope::trace {

// Prefill is a request's first token, Decode every later one; Iteration is a
// training/profiler step (ProfilerStep#N, an NVTX range) in foreign traces.
enum class Phase : std::uint8_t { Prefill, Decode, Iteration };

// Batch composition of an engine iteration, read from its marker (vLLM's
// execute_context_N(T)_generation_N(T), TensorRT-LLM's "N ctx reqs, M gen reqs");
// -1 = the marker does not say.
struct BatchComposition {
    std::int32_t prefill_requests = -1;
    std::int32_t prefill_tokens = -1;
    std::int32_t decode_requests = -1;
    std::int32_t decode_tokens = -1;

    bool known() const { return prefill_requests >= 0 || decode_requests >= 0; }
    bool has_prefill() const { return prefill_requests > 0 || prefill_tokens > 0; }
    bool operator==(const BatchComposition&) const = default;
};

struct Step {
    std::int64_t request = 0;  // request id; 0 for iteration steps
    std::int32_t index = 0;    // token index within the request, or iteration number
    Phase phase = Phase::Decode;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;    // = emission time of the token
    std::int64_t floor_ns = 0;  // roofline floor of this step; 0 = unknown
    BatchComposition batch{};   // engine iterations only

    std::int64_t duration_ns() const { return end_ns - start_ns; }
    // An engine or profiler iteration rather than a request's token; an iteration
    // with prefill work has phase Prefill but is still an iteration.
    bool is_iteration() const { return phase == Phase::Iteration || batch.known(); }
    // One request's token (a client's or a decode run's), as opposed to an iteration.
    bool is_token() const { return !is_iteration() && request != 0; }
    bool operator==(const Step&) const = default;
};

std::string_view to_string(Phase phase);
std::optional<Phase> phase_from_string(std::string_view text);

}  // namespace tokenscope::trace
