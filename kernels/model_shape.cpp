#include "model_shape.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace tokenscope::kernels {
namespace {

bool iequals(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) ==
               std::tolower(static_cast<unsigned char>(y));
    });
}

// Published configurations (Llama 3.1 8B / 70B, Llama 3.2 1B); "tiny" is small
// enough for a CPU reference run and for tests to reason about by hand.
const std::array<ModelShape, 4>& presets() {
    static const std::array<ModelShape, 4> kPresets = {
        ModelShape{"llama-8b", 32, 4096, 32, 8, 128, 14336, 128256, DType::Bf16},
        ModelShape{"llama-1b", 16, 2048, 32, 8, 64, 8192, 128256, DType::Bf16},
        ModelShape{"llama-70b", 80, 8192, 64, 8, 128, 28672, 128256, DType::Bf16},
        ModelShape{"tiny", 4, 256, 4, 2, 64, 688, 1024, DType::Fp16},
    };
    return kPresets;
}

std::string check_range(std::string_view what, std::int64_t v, std::int64_t hi) {
    if (v >= 1 && v <= hi) return {};
    return std::string(what) + " (" + std::to_string(v) + ") must be in 1.." + std::to_string(hi);
}

}  // namespace

std::uint64_t bytes_per_element(DType dtype) {
    return dtype == DType::Fp32 ? 4 : 2;
}

std::string_view to_string(DType dtype) {
    switch (dtype) {
        case DType::Fp32:
            return "fp32";
        case DType::Fp16:
            return "fp16";
        case DType::Bf16:
            return "bf16";
    }
    return "?";
}

std::optional<DType> dtype_from_string(std::string_view text) {
    for (DType d : {DType::Fp32, DType::Fp16, DType::Bf16})
        if (iequals(text, to_string(d))) return d;
    return std::nullopt;
}

std::uint64_t ModelShape::layer_weight_elements() const {
    const auto h = static_cast<std::uint64_t>(hidden);
    const auto qkv_out = static_cast<std::uint64_t>((heads + 2 * kv_heads) * head_dim);
    const auto attn_out = static_cast<std::uint64_t>(heads * head_dim);
    const auto f = static_cast<std::uint64_t>(ffn);
    return 2 * h + h * qkv_out + attn_out * h + 2 * h * f + f * h;
}

std::uint64_t ModelShape::head_weight_elements() const {
    return static_cast<std::uint64_t>(hidden) + static_cast<std::uint64_t>(vocab * hidden);
}

std::uint64_t ModelShape::parameter_count() const {
    return static_cast<std::uint64_t>(layers) * layer_weight_elements() + head_weight_elements() +
           static_cast<std::uint64_t>(vocab * hidden);
}

std::string ModelShape::validate() const {
    const std::pair<std::string_view, std::pair<std::int64_t, std::int64_t>> fields[] = {
        {"layers", {layers, 1024}},     {"hidden", {hidden, 65536}},    {"heads", {heads, 1024}},
        {"kv_heads", {kv_heads, 1024}}, {"head_dim", {head_dim, 1024}}, {"ffn", {ffn, 262144}},
        {"vocab", {vocab, 1 << 22}},
    };
    for (const auto& [what, v] : fields)
        if (auto e = check_range(what, v.first, v.second); !e.empty()) return e;
    if (heads % kv_heads != 0)
        return "heads (" + std::to_string(heads) + ") is not a multiple of kv_heads (" +
               std::to_string(kv_heads) + ")";
    if (head_dim % 2 != 0)
        return "head_dim (" + std::to_string(head_dim) + ") must be even for rotary embeddings";
    return {};
}

std::optional<ModelShape> find_model_preset(std::string_view name) {
    for (const auto& p : presets())
        if (iequals(p.name, name)) return p;
    return std::nullopt;
}

std::vector<std::string> model_preset_names() {
    std::vector<std::string> names;
    for (const auto& p : presets()) names.push_back(p.name);
    return names;
}

}  // namespace tokenscope::kernels
