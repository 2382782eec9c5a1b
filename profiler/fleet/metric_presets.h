#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tokenscope::fleet {

// The serving engines whose latency histograms have presets (docs/fleet.md, Presets).
enum class Engine : std::uint8_t { Vllm, Sglang, Tgi };

std::optional<Engine> parse_engine(std::string_view name);  // "vllm", "sglang", "tgi"
std::string_view to_string(Engine engine);
std::string engine_names();  // "vllm, sglang, tgi"

// vLLM's histogram for a preset key (ttft, itl, e2e, queue, tpot), the default
// when no engine is named; nullopt for a key that is no preset.
std::optional<std::string> preset_metric(std::string_view key);
std::string preset_names();  // "ttft, itl, e2e, queue, tpot"
bool is_preset(std::string_view key);

// The histograms a preset key names, in the order they are tried: the engine's own
// (tpot has two in vLLM, the deprecated name first), or without an engine vLLM's,
// then SGLang's, then TGI's. Empty for a key that is no preset. Throws
// std::invalid_argument when the engine exports no histogram for the key (TGI has
// neither a time-to-first-token nor an inter-token histogram).
std::vector<std::string> preset_metrics(std::string_view key, std::optional<Engine> engine);

}  // namespace tokenscope::fleet
