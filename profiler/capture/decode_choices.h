#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capture_config.h"

namespace tokenscope::capture {

// The decode's fields (batch, prompt, tokens, strategy options, seed) by the capture
// layer's name for them.
using DecodeConfig = kernels::DecodeConfig;

// What a front end offers for the built-in decode (the GUI's New Run form), in words,
// so it need not include kernels/ (docs/architecture.md: the GUI launches runs through
// the CLI and learns the workload's choices from the capture layer).

// A model preset's shape as a person reads it.
struct ShapeSummary {
    std::int64_t layers = 0, hidden = 0, ffn = 0, vocab = 0;
    std::int64_t heads = 0, kv_heads = 0, head_dim = 0;
    std::string dtype;             // "bf16", ...
    std::uint64_t parameters = 0;  // layers + head + embedding table
};

std::vector<std::string> model_preset_names();  // "llama-8b", "llama-1b", ...
std::optional<ShapeSummary> model_shape(std::string_view preset);
// "greedy", "topk", "beam", "speculative"; the options each uses: topk its top_k, beam
// its beams, speculative draft_layers, gamma and acceptance.
std::vector<std::string> strategy_names();
// The defaults `tokenscope-cli run` starts from, strategy by name.
std::string default_strategy();

// Empty when `decode` (with the strategy named) can run on `preset`; otherwise the first
// problem, naming the field (kernels::DecodeConfig::validate).
std::string decode_problem(std::string_view preset, std::string_view strategy,
                           const DecodeConfig& decode);

}  // namespace tokenscope::capture
