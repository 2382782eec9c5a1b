#include "reference_decoder.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sampling.h"

namespace tokenscope::kernels::cpu {
namespace {

// Validated before any member sizes a buffer from it.
DecodeConfig checked(const ModelShape& shape, const DecodeConfig& config) {
    if (auto e = shape.validate(); !e.empty())
        throw std::invalid_argument("model '" + shape.name + "': " + e);
    if (auto e = config.validate(shape); !e.empty())
        throw std::invalid_argument("decode config: " + e);
    return config;
}

std::int64_t capacity_of(const DecodeConfig& c) {
    // The speculative verifier writes up to gamma positions past the last kept token.
    return c.prompt_len + c.new_tokens + (c.strategy == Strategy::Speculative ? c.gamma : 0);
}

std::vector<float> row_of(const std::vector<float>& logits, std::int64_t row, std::int64_t vocab) {
    const auto begin = logits.begin() + static_cast<std::ptrdiff_t>(row * vocab);
    return {begin, begin + static_cast<std::ptrdiff_t>(vocab)};
}

}  // namespace

ReferenceDecoder::ReferenceDecoder(const ModelWeights& weights, const DecodeConfig& config)
    : weights_(weights),
      shape_(weights.shape()),
      config_(checked(weights.shape(), config)),
      sequences_(config_.sequences()),
      rope_(shape_.head_dim, capacity_of(config_)),
      cache_(shape_.layers, sequences_, shape_.kv_heads, shape_.head_dim, capacity_of(config_)),
      pass_(weights_, rope_, cache_),
      sampling_rng_(config_.seed ^ kSamplingStream),
      history_(static_cast<std::size_t>(sequences_)),
      row_logits_(static_cast<std::size_t>(sequences_)),
      first_logits_(static_cast<std::size_t>(config_.batch)),
      beam_scores_(static_cast<std::size_t>(sequences_), 0.0) {
    Rng prompt_rng(config_.seed ^ kPromptStream);
    prompts_.resize(static_cast<std::size_t>(config_.batch));
    for (auto& prompt : prompts_)
        for (std::int64_t j = 0; j < config_.prompt_len; ++j)
            prompt.push_back(static_cast<std::int32_t>(prompt_rng.next() %
                                                       static_cast<std::uint64_t>(shape_.vocab)));
    if (config_.strategy == Strategy::Beam) {
        // The beams of a request start identical: only the first may be extended.
        for (std::int64_t s = 0; s < sequences_; ++s)
            if (s % config_.beams != 0)
                beam_scores_[static_cast<std::size_t>(s)] =
                    -std::numeric_limits<double>::infinity();
    }
}

IterationResult ReferenceDecoder::step(KernelObserver* observer) {
    if (done()) throw std::logic_error("ReferenceDecoder::step after the last token");
    IterationResult result;
    result.index = index_;
    result.prefill = index_ == 0;
    result.cached = result.prefill ? 0 : config_.prompt_len + generated_ - 1;
    kernels_.clear();
    KernelRunner runner(shape_.dtype_bytes(), observer, kernels_);
    const std::int64_t before = generated_;
    if (result.prefill) {
        result.positions = config_.prompt_len;
        prefill(runner);
    } else if (config_.strategy == Strategy::Speculative) {
        result.positions = config_.gamma + 1;
        speculate(runner, result);
    } else {
        result.positions = 1;
        decode(runner);
    }
    result.tokens_emitted = static_cast<std::int32_t>(generated_ - before);
    ++index_;
    return result;
}

PassSpec ReferenceDecoder::target_pass(std::int64_t cached, std::int64_t positions) const {
    PassSpec p;
    p.layers = shape_.layers;
    p.sequences = sequences_;
    p.cached = cached;
    p.positions = positions;
    p.logit_rows = 1;
    p.sampler = sampler_of(config_.strategy);
    p.top_k = config_.top_k;
    p.reorder_kv = config_.strategy == Strategy::Beam;
    return p;
}

void ReferenceDecoder::prefill(KernelRunner& runner) {
    std::vector<std::int32_t> tokens;
    for (std::int64_t s = 0; s < sequences_; ++s) {
        const auto& prompt = prompts_[static_cast<std::size_t>(request_of(s))];
        tokens.insert(tokens.end(), prompt.begin(), prompt.end());
    }
    const auto& logits = pass_.run(target_pass(0, config_.prompt_len), tokens, runner);
    sample(logits, runner, config_.prompt_len);
    for (std::int64_t r = 0; r < config_.batch; ++r)
        first_logits_[static_cast<std::size_t>(r)] =
            row_logits_[static_cast<std::size_t>(best_beam(r))];
    if (config_.strategy == Strategy::Speculative) {
        // The draft fills its blocks' cache with the prompt; it needs no logits yet.
        PassSpec draft;
        draft.layers = config_.draft_layers;
        draft.draft = true;
        draft.sequences = sequences_;
        draft.positions = config_.prompt_len;
        draft.logit_rows = 0;
        draft.sampler = Sampler::None;
        pass_.run(draft, tokens, runner);
    }
    generated_ = 1;
}

void ReferenceDecoder::decode(KernelRunner& runner) {
    std::vector<std::int32_t> tokens;
    for (const auto& h : history_) tokens.push_back(h.back());
    const std::int64_t cached = config_.prompt_len + generated_ - 1;
    const auto& logits = pass_.run(target_pass(cached, 1), tokens, runner);
    sample(logits, runner, cached + 1);
    ++generated_;
}

void ReferenceDecoder::sample(const std::vector<float>& logits, KernelRunner& runner,
                              std::int64_t cache_positions) {
    const std::int64_t v = shape_.vocab;
    if (config_.strategy == Strategy::Beam) {
        beam_step(logits, runner, cache_positions);
        return;
    }
    const bool topk = config_.strategy == Strategy::TopK;
    runner.run(topk ? KernelOp::TopKSample : KernelOp::Argmax, false, -1, [&](WorkMeter& m) {
        for (std::int64_t s = 0; s < sequences_; ++s) {
            const float* row = logits.data() + s * v;
            const std::int32_t id =
                topk ? topk_sample(row, v, config_.top_k, sampling_rng_.uniform(), m)
                     : argmax_sample(row, v, m);
            history_[static_cast<std::size_t>(s)].push_back(id);
        }
    });
    for (std::int64_t s = 0; s < sequences_; ++s)
        row_logits_[static_cast<std::size_t>(s)] = row_of(logits, s, v);
}

void ReferenceDecoder::beam_step(const std::vector<float>& logits, KernelRunner& runner,
                                 std::int64_t cache_positions) {
    const std::int64_t v = shape_.vocab;
    const std::int64_t k = config_.beams;
    std::vector<std::int32_t> parents(static_cast<std::size_t>(sequences_));
    auto history = history_;
    runner.run(KernelOp::BeamTopK, false, -1, [&](WorkMeter& m) {
        for (std::int64_t r = 0; r < config_.batch; ++r) {
            const auto choices =
                beam_select(logits.data() + r * k * v, beam_scores_.data() + r * k, k, v, m);
            for (std::int64_t b = 0; b < k; ++b) {
                const auto& c = choices[static_cast<std::size_t>(b)];
                const auto s = static_cast<std::size_t>(r * k + b);
                parents[s] = static_cast<std::int32_t>(r * k + c.parent);
                history[s] = history_[static_cast<std::size_t>(parents[s])];
                history[s].push_back(c.token);
                beam_scores_[s] = c.score;
            }
        }
    });
    history_ = std::move(history);
    for (std::int64_t s = 0; s < sequences_; ++s)
        row_logits_[static_cast<std::size_t>(s)] =
            row_of(logits, parents[static_cast<std::size_t>(s)], v);
    runner.run(KernelOp::KvReorder, false, -1,
               [&](WorkMeter& m) { cache_.reorder(parents, shape_.layers, cache_positions, m); });
}

void ReferenceDecoder::speculate(KernelRunner& runner, IterationResult& result) {
    const std::int64_t v = shape_.vocab;
    const std::int64_t gamma = config_.gamma;
    const std::int64_t cached = config_.prompt_len + generated_ - 1;
    std::vector<std::int32_t> input;
    for (const auto& h : history_) input.push_back(h.back());
    std::vector<std::vector<std::int32_t>> drafted(static_cast<std::size_t>(sequences_));
    for (std::int64_t j = 0; j < gamma; ++j) {
        PassSpec draft{config_.draft_layers, true, sequences_, cached + j, 1, 1,
                       Sampler::Argmax,      1,    0,          false};
        const auto& logits = pass_.run(draft, input, runner);
        runner.run(KernelOp::Argmax, true, -1, [&](WorkMeter& m) {
            for (std::int64_t s = 0; s < sequences_; ++s) {
                input[static_cast<std::size_t>(s)] = argmax_sample(logits.data() + s * v, v, m);
                drafted[static_cast<std::size_t>(s)].push_back(input[static_cast<std::size_t>(s)]);
            }
        });
    }
    std::vector<std::int32_t> tokens;
    for (std::int64_t s = 0; s < sequences_; ++s) {
        tokens.push_back(history_[static_cast<std::size_t>(s)].back());
        const auto& d = drafted[static_cast<std::size_t>(s)];
        tokens.insert(tokens.end(), d.begin(), d.end());
    }
    PassSpec verify{shape_.layers,       false, sequences_, cached, gamma + 1, gamma + 1,
                    Sampler::SpecVerify, 1,     gamma,      false};
    const auto& logits = pass_.run(verify, tokens, runner);
    std::vector<SpecVerdict> verdicts;
    runner.run(KernelOp::SpecVerify, false, -1, [&](WorkMeter& m) {
        for (std::int64_t s = 0; s < sequences_; ++s)
            verdicts.push_back(spec_verify(logits.data() + s * (gamma + 1) * v, v,
                                           drafted[static_cast<std::size_t>(s)].data(), gamma, m));
    });
    std::int32_t accepted = static_cast<std::int32_t>(gamma);
    for (const auto& vd : verdicts) accepted = std::min(accepted, vd.accepted);
    const std::int64_t emitted =
        std::min<std::int64_t>(accepted + 1, config_.new_tokens - generated_);
    for (std::int64_t s = 0; s < sequences_; ++s) {
        const auto& targets = verdicts[static_cast<std::size_t>(s)].targets;
        auto& h = history_[static_cast<std::size_t>(s)];
        h.insert(h.end(), targets.begin(), targets.begin() + emitted);
        row_logits_[static_cast<std::size_t>(s)] = row_of(logits, s * (gamma + 1) + emitted - 1, v);
    }
    generated_ += emitted;
    result.accepted = accepted;
}

std::int64_t ReferenceDecoder::request_of(std::int64_t seq) const {
    return config_.strategy == Strategy::Beam ? seq / config_.beams : seq;
}

std::int64_t ReferenceDecoder::best_beam(std::int64_t request) const {
    // beam_select returns a request's beams best first.
    return config_.strategy == Strategy::Beam ? request * config_.beams : request;
}

std::vector<std::vector<std::int32_t>> ReferenceDecoder::tokens() const {
    std::vector<std::vector<std::int32_t>> out;
    for (std::int64_t r = 0; r < config_.batch; ++r)
        out.push_back(history_[static_cast<std::size_t>(best_beam(r))]);
    return out;
}

std::vector<std::vector<float>> ReferenceDecoder::last_logits() const {
    std::vector<std::vector<float>> out;
    for (std::int64_t r = 0; r < config_.batch; ++r)
        out.push_back(row_logits_[static_cast<std::size_t>(best_beam(r))]);
    return out;
}

}  // namespace tokenscope::kernels::cpu
