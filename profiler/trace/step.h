#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tokenscope::trace {

// Prefill is a request's first token, Decode every later one; Iteration is a
// training/profiler step (ProfilerStep#N, an NVTX range) in foreign traces.
enum class Phase : std::uint8_t { Prefill, Decode, Iteration };

struct Step {
    std::int64_t request = 0;  // request id; 0 for iteration steps
    std::int32_t index = 0;    // token index within the request, or iteration number
    Phase phase = Phase::Decode;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;    // = emission time of the token
    std::int64_t floor_ns = 0;  // roofline floor of this step; 0 = unknown

    std::int64_t duration_ns() const { return end_ns - start_ns; }
    bool operator==(const Step&) const = default;
};

std::string_view to_string(Phase phase);
std::optional<Phase> phase_from_string(std::string_view text);

}  // namespace tokenscope::trace
