#include "decode_choices.h"

#include "kernels/decode_config.h"
#include "kernels/model_shape.h"

namespace tokenscope::capture {

std::vector<std::string> model_preset_names() {
    return kernels::model_preset_names();
}

std::optional<ShapeSummary> model_shape(std::string_view preset) {
    const auto s = kernels::find_model_preset(preset);
    if (!s) return std::nullopt;
    return ShapeSummary{s->layers,
                        s->hidden,
                        s->ffn,
                        s->vocab,
                        s->heads,
                        s->kv_heads,
                        s->head_dim,
                        std::string(kernels::to_string(s->dtype)),
                        s->parameter_count()};
}

std::vector<std::string> strategy_names() {
    std::vector<std::string> out;
    for (auto s : {kernels::Strategy::Greedy, kernels::Strategy::TopK, kernels::Strategy::Beam,
                   kernels::Strategy::Speculative})
        out.emplace_back(kernels::to_string(s));
    return out;
}

std::string default_strategy() {
    return std::string(kernels::to_string(run_defaults().decode.strategy));
}

std::string decode_problem(std::string_view preset, std::string_view strategy,
                           const DecodeConfig& decode) {
    const auto shape = kernels::find_model_preset(preset);
    if (!shape) return "unknown workload preset '" + std::string(preset) + "'";
    const auto s = kernels::strategy_from_string(strategy);
    if (!s) return "unknown strategy '" + std::string(strategy) + "'";
    DecodeConfig d = decode;
    d.strategy = *s;
    return d.validate(*shape);
}

}  // namespace tokenscope::capture
