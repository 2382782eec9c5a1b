#pragma once

#include <cstdint>
#include <vector>

#include "kernels/decode_config.h"
#include "kernels/model_shape.h"
#include "model_weights.h"

namespace tokenscope::kernels::cpu {

// What a whole reference decode produced: for comparing a GPU run of the same
// weights, prompts and config with the reference.
struct GenerationResult {
    std::vector<std::vector<std::int32_t>> prompts;  // per request
    std::vector<std::vector<std::int32_t>> tokens;   // per request, new_tokens ids
    // Logits (fp32, vocab) that produced each request's first and last token.
    std::vector<std::vector<float>> first_logits;
    std::vector<std::vector<float>> last_logits;
    std::int32_t iterations = 0;
};

// Decodes with ModelWeights(shape, config.seed). Throws std::invalid_argument for an
// unusable shape or config.
GenerationResult cpu_generate(const ModelShape& shape, const DecodeConfig& config);
// The same with weights the caller already holds (e.g. also uploaded to a GPU).
GenerationResult cpu_generate(const ModelWeights& weights, const DecodeConfig& config);

}  // namespace tokenscope::kernels::cpu
