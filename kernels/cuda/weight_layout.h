#pragma once

#include <cstdint>
#include <vector>

#include "counter_draw.h"
#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

enum class WeightTensor : std::uint8_t {
    Embedding,
    AttnNorm,
    Qkv,
    O,
    MlpNorm,
    GateUp,
    Down,
    FinalNorm,
    LmHead,
};

// One tensor of the model: row-major [rows][cols] (matrices are [in][out], as in the
// CPU reference) and the range of the seed's SplitMix64 stream its values come from.
struct TensorDraws {
    WeightTensor tensor = WeightTensor::Embedding;
    std::int32_t layer = -1;
    std::uint64_t first_draw = 0;
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    DrawKind kind = DrawKind::Matrix;
    float step = 0.0f;  // Matrix kind: the power of two q is scaled by

    std::uint64_t elements() const { return rows * cols; }
};

// The draw order of kernels/cpu/model_weights.cpp, with offsets, so every tensor can
// be generated on its own (on the device) and still equal the CPU reference's.
class WeightLayout {
  public:
    explicit WeightLayout(const ModelShape& shape);

    const std::vector<TensorDraws>& tensors() const { return tensors_; }
    // Throws std::out_of_range when the shape has no such tensor.
    const TensorDraws& find(WeightTensor tensor, std::int32_t layer = -1) const;
    std::uint64_t total_draws() const { return next_draw_; }

    // Largest power of two step with 127 * step <= 1 / sqrt(fan_in).
    static float matrix_step(std::int64_t fan_in);

  private:
    void add(WeightTensor tensor, std::int32_t layer, std::int64_t rows, std::int64_t cols,
             DrawKind kind, float step);

    std::vector<TensorDraws> tensors_;
    std::uint64_t next_draw_ = 0;
};

}  // namespace tokenscope::kernels::cuda
