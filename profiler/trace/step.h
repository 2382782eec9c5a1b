#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tokenscope::trace {

// Prefill is a request's first token, Decode every later one; Iteration is a
// training/profiler step (ProfilerStep#N, an NVTX range) in foreign traces.
enum class Phase : std::uint8_t { Prefill, Decode, Iteration };

// Batch composition of an engine iteration, read from its marker (vLLM's
// execute_context_N(T)_generation_N(T) and execute_N_context_C(sq..sk..)_generation_G(..),
// TensorRT-LLM's "N ctx reqs, M gen reqs", SGLang's step[EXTEND bs=N toks=T]);
// -1 = the marker does not say. Tokens are the query tokens the iteration computes; key
// tokens the keys its attention reads (vLLM's "sk": the sum of the requests' context
// lengths), which is what makes a decode iteration's attention slow or fast.
struct BatchComposition {
    std::int32_t prefill_requests = -1;
    std::int32_t prefill_tokens = -1;
    std::int32_t decode_requests = -1;
    std::int32_t decode_tokens = -1;
    std::int32_t prefill_key_tokens = -1;
    std::int32_t decode_key_tokens = -1;

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
    // Engine iterations of foreign traces: where the CPU marker that framed the step ended.
    // The step runs on to the end of the GPU work launched inside the marker
    // (docs/engine-traces.md, Iteration windows), so end_ns >= marker_end_ns; 0 = the
    // step was not framed by a marker (it ends where its source said).
    std::int64_t marker_end_ns = 0;

    std::int64_t duration_ns() const { return end_ns - start_ns; }
    // Moves the step in time (a clock offset or the file's base time), its marker with it.
    void shift(std::int64_t by) {
        start_ns += by;
        end_ns += by;
        if (marker_end_ns != 0) marker_end_ns += by;
    }
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
