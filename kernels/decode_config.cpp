#include "decode_config.h"

#include <algorithm>
#include <cctype>

namespace tokenscope::kernels {
namespace {

// Bounds keep a plan's FLOP counts (attention grows with sequences * context^2)
// inside 64 bits and a simulated run small enough to hold in memory.
constexpr std::int64_t kMaxSequences = 4096;
constexpr std::int64_t kMaxContext = 131072;
constexpr std::int64_t kMaxGamma = 16;

std::string out_of_range(std::string_view what, std::int64_t v, std::int64_t lo, std::int64_t hi) {
    return std::string(what) + " (" + std::to_string(v) + ") must be in " + std::to_string(lo) +
           ".." + std::to_string(hi);
}

}  // namespace

std::string_view to_string(Strategy strategy) {
    switch (strategy) {
        case Strategy::Greedy:
            return "greedy";
        case Strategy::TopK:
            return "topk";
        case Strategy::Beam:
            return "beam";
        case Strategy::Speculative:
            return "speculative";
    }
    return "?";
}

std::optional<Strategy> strategy_from_string(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (auto s : {Strategy::Greedy, Strategy::TopK, Strategy::Beam, Strategy::Speculative})
        if (lower == to_string(s)) return s;
    return std::nullopt;
}

std::string DecodeConfig::validate(const ModelShape& shape) const {
    if (batch < 1 || batch > kMaxSequences) return out_of_range("batch", batch, 1, kMaxSequences);
    if (prompt_len < 1) return out_of_range("prompt_len", prompt_len, 1, kMaxContext);
    if (new_tokens < 1) return out_of_range("new_tokens", new_tokens, 1, kMaxContext);
    // The speculative verifier may look gamma positions past the last kept token.
    const std::int64_t lookahead = strategy == Strategy::Speculative ? gamma : 0;
    if (prompt_len + new_tokens + lookahead > kMaxContext)
        return "prompt_len + new_tokens (" + std::to_string(prompt_len + new_tokens) +
               ") exceeds the context limit " + std::to_string(kMaxContext - lookahead);
    switch (strategy) {
        case Strategy::Greedy:
            break;
        case Strategy::TopK:
            if (top_k < 1 || top_k > shape.vocab)
                return out_of_range("top_k", top_k, 1, shape.vocab);
            break;
        case Strategy::Beam:
            if (beams < 1 || beams > std::min(shape.vocab, kMaxSequences))
                return out_of_range("beams", beams, 1, std::min(shape.vocab, kMaxSequences));
            if (batch * beams > kMaxSequences)
                return "batch * beams (" + std::to_string(batch * beams) + ") exceeds " +
                       std::to_string(kMaxSequences);
            break;
        case Strategy::Speculative:
            if (draft_layers < 1 || draft_layers > shape.layers)
                return out_of_range("draft_layers", draft_layers, 1, shape.layers);
            if (gamma < 1 || gamma > kMaxGamma) return out_of_range("gamma", gamma, 1, kMaxGamma);
            if (!(acceptance >= 0.0 && acceptance <= 1.0))
                return "acceptance (" + std::to_string(acceptance) + ") must be in 0..1";
            break;
    }
    return {};
}

}  // namespace tokenscope::kernels
