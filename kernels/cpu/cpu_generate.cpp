#include "cpu_generate.h"

#include "reference_decoder.h"

namespace tokenscope::kernels::cpu {

GenerationResult cpu_generate(const ModelShape& shape, const DecodeConfig& config) {
    return cpu_generate(ModelWeights(shape, config.seed), config);
}

GenerationResult cpu_generate(const ModelWeights& weights, const DecodeConfig& config) {
    ReferenceDecoder decoder(weights, config);
    GenerationResult result;
    while (!decoder.done()) {
        decoder.step();
        ++result.iterations;
    }
    result.prompts = decoder.prompts();
    result.tokens = decoder.tokens();
    result.first_logits = decoder.first_logits();
    result.last_logits = decoder.last_logits();
    return result;
}

}  // namespace tokenscope::kernels::cpu
