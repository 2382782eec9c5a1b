#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tokenscope::kernels {

enum class DType : std::uint8_t { Fp32, Fp16, Bf16 };

std::uint64_t bytes_per_element(DType dtype);
std::string_view to_string(DType dtype);  // "fp32", "fp16", "bf16"
std::optional<DType> dtype_from_string(std::string_view text);

// A Llama-style decoder: pre-norm blocks of grouped-query attention and a SwiGLU MLP.
struct ModelShape {
    std::string name;
    std::int64_t layers = 0;
    std::int64_t hidden = 0;
    std::int64_t heads = 0;
    std::int64_t kv_heads = 0;
    std::int64_t head_dim = 0;
    std::int64_t ffn = 0;
    std::int64_t vocab = 0;
    DType dtype = DType::Bf16;

    std::uint64_t dtype_bytes() const { return bytes_per_element(dtype); }
    // Weights one block reads: two RMSNorm vectors, QKV, O, gate+up and down.
    std::uint64_t layer_weight_elements() const;
    // Weights after the last block: the final RMSNorm vector and the LM head.
    std::uint64_t head_weight_elements() const;
    // layers blocks + head + embedding table (counted once, as if untied).
    std::uint64_t parameter_count() const;
    // Empty when usable; otherwise the first problem, e.g. "heads (6) is not a multiple of
    // kv_heads (4)". Limits keep every FLOP count of a plan inside 64 bits.
    std::string validate() const;

    bool operator==(const ModelShape&) const = default;
};

// "llama-8b", "llama-1b", "llama-70b", "tiny"; case-insensitive.
std::optional<ModelShape> find_model_preset(std::string_view name);
std::vector<std::string> model_preset_names();

}  // namespace tokenscope::kernels
