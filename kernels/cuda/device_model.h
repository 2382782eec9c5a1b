#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "device_buffer.h"
#include "kernels/model_shape.h"
#include "weight_layout.h"

namespace tokenscope::kernels::cuda {

struct LayerPointers {
    const void* attn_norm = nullptr;
    const void* wqkv = nullptr;
    const void* wo = nullptr;
    const void* mlp_norm = nullptr;
    const void* w_gate_up = nullptr;
    const void* w_down = nullptr;
};

// The model's weights on the device in its dtype, filled in place from the seed's
// stream (bit-identical to kernels/cpu's ModelWeights), and the RoPE tables.
class DeviceModel {
  public:
    // Blocks until the weights are written; throws CudaError on any failure.
    DeviceModel(const ModelShape& shape, std::uint64_t seed, std::int64_t rope_positions,
                cudaStream_t stream);

    const void* embedding() const { return embedding_; }
    const LayerPointers& layer(std::int32_t l) const {
        return layers_[static_cast<std::size_t>(l)];
    }
    const void* final_norm() const { return final_norm_; }
    const void* lm_head() const { return lm_head_; }
    const float* rope_cos() const { return rope_.as<float>(); }
    const float* rope_sin() const { return rope_.as<float>() + rope_half_elements_; }

    // RoPE angles exactly as kernels/cpu's RopeTable (double, then rounded to float).
    static std::vector<float> rope_table(std::int64_t head_dim, std::int64_t positions, bool sine);

  private:
    void* tensor(const WeightLayout& layout, WeightTensor t, std::int32_t layer) const;

    DeviceBuffer weights_;
    DeviceBuffer rope_;
    std::size_t rope_half_elements_ = 0;
    std::uint64_t dtype_bytes_ = 2;
    const void* embedding_ = nullptr;
    std::vector<LayerPointers> layers_;
    const void* final_norm_ = nullptr;
    const void* lm_head_ = nullptr;
};

}  // namespace tokenscope::kernels::cuda
