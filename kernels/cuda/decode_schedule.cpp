#include "decode_schedule.h"

#include <algorithm>
#include <stdexcept>

#include "kernels/decode_planner.h"

namespace tokenscope::kernels::cuda {
DecodeSchedule::DecodeSchedule(ModelShape shape, DecodeConfig config)
    : shape_(std::move(shape)), config_(config) {
    if (auto e = shape_.validate(); !e.empty())
        throw std::invalid_argument("model '" + shape_.name + "': " + e);
    if (auto e = config_.validate(shape_); !e.empty())
        throw std::invalid_argument("decode config: " + e);
}

std::int64_t DecodeSchedule::cache_capacity() const {
    const std::int64_t lookahead = config_.strategy == Strategy::Speculative ? config_.gamma : 0;
    return config_.prompt_len + config_.new_tokens + lookahead;
}

ScheduledIteration DecodeSchedule::prefill() const {
    const std::int64_t seqs = config_.sequences();
    const bool beam = config_.strategy == Strategy::Beam;
    std::vector<PassSpec> passes;
    passes.push_back(PassSpec{shape_.layers, false, seqs, 0, config_.prompt_len, 1,
                              sampler_of(config_.strategy), config_.top_k, 0, beam});
    if (config_.strategy == Strategy::Speculative)
        passes.push_back(PassSpec{config_.draft_layers, true, seqs, 0, config_.prompt_len, 0,
                                  Sampler::None, 1, 0, false});
    ScheduledIteration it = build(0, 0, std::move(passes));
    it.plan.prefill = true;
    it.plan.positions = config_.prompt_len;
    it.plan.tokens_emitted = 1;
    it.plan.h2d_bytes = static_cast<std::uint64_t>(seqs * config_.prompt_len) * 4;
    it.plan.floor_bytes = 0;
    return it;
}

ScheduledIteration DecodeSchedule::decode(std::int32_t index, std::int64_t cached,
                                          std::int64_t generated) const {
    const std::int64_t seqs = config_.sequences();
    std::vector<PassSpec> passes;
    DecodeConfig floor_config = config_;
    std::uint64_t floor = 0;
    if (config_.strategy == Strategy::Speculative) {
        ModelShape draft = shape_;
        draft.layers = config_.draft_layers;
        for (std::int64_t j = 0; j < config_.gamma; ++j) {
            passes.push_back(PassSpec{config_.draft_layers, true, seqs, cached + j, 1, 1,
                                      Sampler::Argmax, 1, 0, false});
            floor += decode_step_bytes(draft, floor_config, cached + j + 1);
        }
        passes.push_back(PassSpec{shape_.layers, false, seqs, cached, config_.gamma + 1,
                                  config_.gamma + 1, Sampler::SpecVerify, 1, config_.gamma, false});
        floor += decode_step_bytes(shape_, floor_config, cached + config_.gamma + 1);
    } else {
        passes.push_back(PassSpec{shape_.layers, false, seqs, cached, 1, 1,
                                  sampler_of(config_.strategy), config_.top_k, 0,
                                  config_.strategy == Strategy::Beam});
        floor = decode_step_bytes(shape_, floor_config, cached + 1);
    }
    ScheduledIteration it = build(index, cached, std::move(passes));
    it.plan.positions = it.passes.back().positions;
    it.plan.tokens_emitted =
        static_cast<std::int32_t>(std::min<std::int64_t>(1, config_.new_tokens - generated));
    it.plan.h2d_bytes = static_cast<std::uint64_t>(seqs) * 4;
    it.plan.floor_bytes = floor;
    return it;
}

ScheduledIteration DecodeSchedule::build(std::int32_t index, std::int64_t cached,
                                         std::vector<PassSpec> passes) const {
    ScheduledIteration it;
    it.plan.index = index;
    it.plan.cached = cached;
    PassBuilder builder(shape_);
    for (const auto& p : passes) builder.append(p, it.plan.kernels);
    // The host copies back what the pass with a sampler that emits tokens wrote.
    for (const auto& p : passes)
        if (!p.draft) it.plan.d2h_bytes = builder.sampler_output_bytes(p);
    it.passes = std::move(passes);
    return it;
}

std::int32_t DecodeSchedule::lockstep_accepted(std::span<const std::int32_t> accepted) {
    if (accepted.empty()) return 0;
    return std::max(0, *std::min_element(accepted.begin(), accepted.end()));
}

std::int32_t DecodeSchedule::tokens_to_emit(std::int32_t accepted, std::int64_t remaining) {
    return static_cast<std::int32_t>(
        std::max<std::int64_t>(0, std::min<std::int64_t>(accepted + 1, remaining)));
}

}  // namespace tokenscope::kernels::cuda
