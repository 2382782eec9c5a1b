#include "decode_planner.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "pass_builder.h"
#include "rng.h"

namespace tokenscope::kernels {
namespace {

// Keeps the acceptance draws independent of other users of the same seed (the jitter).
constexpr std::uint64_t kAcceptanceStream = 0xacce97a9ce5eed00ull;

}  // namespace

std::uint64_t decode_step_bytes(const ModelShape& shape, const DecodeConfig& config,
                                std::int64_t context) {
    const std::uint64_t b = shape.dtype_bytes();
    const auto layers = static_cast<std::uint64_t>(shape.layers);
    const std::uint64_t weights =
        (layers * shape.layer_weight_elements() + shape.head_weight_elements()) * b;
    const std::uint64_t kv = 2 * layers * static_cast<std::uint64_t>(shape.kv_heads) *
                             static_cast<std::uint64_t>(shape.head_dim) *
                             static_cast<std::uint64_t>(context) *
                             static_cast<std::uint64_t>(config.sequences()) * b;
    return weights + kv;
}

DecodePlanner::DecodePlanner(ModelShape shape, DecodeConfig config)
    : shape_(std::move(shape)), config_(config) {
    if (auto e = shape_.validate(); !e.empty())
        throw std::invalid_argument("model '" + shape_.name + "': " + e);
    if (auto e = config_.validate(shape_); !e.empty())
        throw std::invalid_argument("decode config: " + e);
    build_schedule();
}

void DecodePlanner::build_schedule() {
    const std::int64_t total = config_.new_tokens;
    schedule_.push_back(Slot{0, 1, 0});  // prefill: nothing cached, first token out
    std::int64_t generated = 1;
    Rng rng(config_.seed ^ kAcceptanceStream);
    while (generated < total) {
        // Every emitted token but the newest has its K/V in the cache.
        const std::int64_t cached = config_.prompt_len + generated - 1;
        std::int32_t accepted = 0;
        if (config_.strategy == Strategy::Speculative) {
            while (accepted < config_.gamma && rng.bernoulli(config_.acceptance)) ++accepted;
        }
        // Accepted drafts plus the target's own token at the first mismatch (or after all).
        const auto emitted =
            static_cast<std::int32_t>(std::min<std::int64_t>(accepted + 1, total - generated));
        schedule_.push_back(Slot{cached, emitted, accepted});
        generated += emitted;
    }
}

ModelShape DecodePlanner::draft_shape() const {
    ModelShape draft = shape_;
    draft.name = shape_.name + "-draft";
    draft.layers = config_.draft_layers;
    return draft;
}

IterationPlan DecodePlanner::iteration(std::int32_t index) const {
    if (index < 0 || index >= iteration_count())
        throw std::out_of_range("iteration " + std::to_string(index) + " outside 0.." +
                                std::to_string(iteration_count() - 1));
    const Slot& slot = schedule_[static_cast<std::size_t>(index)];
    IterationPlan plan;
    plan.index = index;
    plan.prefill = index == 0;
    plan.cached = slot.cached;
    plan.tokens_emitted = slot.emitted;
    plan.accepted = slot.accepted;
    if (plan.prefill)
        plan_prefill(plan);
    else if (config_.strategy == Strategy::Speculative)
        plan_speculative(plan);
    else
        plan_decode(plan);
    return plan;
}

void DecodePlanner::plan_prefill(IterationPlan& plan) const {
    const std::int64_t seqs = config_.sequences();
    plan.positions = config_.prompt_len;
    PassSpec target{shape_.layers,
                    false,
                    seqs,
                    0,
                    config_.prompt_len,
                    1,
                    sampler_of(config_.strategy),
                    config_.top_k,
                    0,
                    config_.strategy == Strategy::Beam};
    PassBuilder builder(shape_);
    builder.append(target, plan.kernels);
    if (config_.strategy == Strategy::Speculative) {
        // The draft fills its own cache with the prompt; it needs no logits yet.
        PassSpec draft{config_.draft_layers, true, seqs, 0,    config_.prompt_len, 0,
                       Sampler::None,        1,    0,    false};
        builder.append(draft, plan.kernels);
    }
    plan.h2d_bytes = static_cast<std::uint64_t>(seqs * config_.prompt_len) * 4;
    plan.d2h_bytes = builder.sampler_output_bytes(target);
}

void DecodePlanner::plan_decode(IterationPlan& plan) const {
    const std::int64_t seqs = config_.sequences();
    plan.positions = 1;
    PassSpec pass{shape_.layers,
                  false,
                  seqs,
                  plan.cached,
                  1,
                  1,
                  sampler_of(config_.strategy),
                  config_.top_k,
                  0,
                  config_.strategy == Strategy::Beam};
    PassBuilder builder(shape_);
    builder.append(pass, plan.kernels);
    plan.h2d_bytes = static_cast<std::uint64_t>(seqs) * 4;
    plan.d2h_bytes = builder.sampler_output_bytes(pass);
    plan.floor_bytes = decode_step_bytes(shape_, config_, plan.cached + 1);
}

void DecodePlanner::plan_speculative(IterationPlan& plan) const {
    const std::int64_t seqs = config_.sequences();
    const std::int64_t gamma = config_.gamma;
    plan.positions = gamma + 1;
    PassBuilder draft_builder(shape_);  // same widths; the pass carries the layer count
    for (std::int64_t j = 0; j < gamma; ++j) {
        // Draft pass j feeds the token drafted by pass j - 1 (the last emitted one for j = 0).
        PassSpec draft{
            config_.draft_layers, true, seqs, plan.cached + j, 1, 1, Sampler::Argmax, 1, 0, false};
        draft_builder.append(draft, plan.kernels);
        plan.floor_bytes += decode_step_bytes(draft_shape(), config_, plan.cached + j + 1);
    }
    PassSpec verify{shape_.layers,       false, seqs,  plan.cached, gamma + 1, gamma + 1,
                    Sampler::SpecVerify, 1,     gamma, false};
    draft_builder.append(verify, plan.kernels);
    plan.floor_bytes += decode_step_bytes(shape_, config_, plan.cached + gamma + 1);
    plan.h2d_bytes = static_cast<std::uint64_t>(seqs) * 4;
    plan.d2h_bytes = draft_builder.sampler_output_bytes(verify);
}

}  // namespace tokenscope::kernels
