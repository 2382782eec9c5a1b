#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model_shape.h"

namespace tokenscope::kernels {

enum class Strategy : std::uint8_t { Greedy, TopK, Beam, Speculative };

std::string_view to_string(Strategy strategy);  // "greedy", "topk", "beam", "speculative"
std::optional<Strategy> strategy_from_string(std::string_view text);

// What one decode run does. Only the fields of the chosen strategy matter.
struct DecodeConfig {
    std::int64_t batch = 1;  // requests, all arriving at the run start
    std::int64_t prompt_len = 128;
    std::int64_t new_tokens = 64;  // tokens generated per request, the prefill's included
    Strategy strategy = Strategy::Greedy;
    std::int64_t top_k = 50;  // TopK
    std::int64_t beams = 4;   // Beam
    // Speculative: a draft model with the target's widths but draft_layers blocks
    // proposes gamma tokens; each is accepted with probability `acceptance`
    // (independently, stopping at the first rejection) when the target verifies them.
    std::int64_t draft_layers = 2;
    std::int64_t gamma = 4;
    double acceptance = 0.7;
    std::uint64_t seed = 1;

    // Sequences the GPU processes: beam search runs batch * beams of them.
    std::int64_t sequences() const { return strategy == Strategy::Beam ? batch * beams : batch; }
    // Empty when usable with `shape`; otherwise the first problem, naming the field.
    std::string validate(const ModelShape& shape) const;
};

}  // namespace tokenscope::kernels
