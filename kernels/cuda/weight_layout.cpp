#include "weight_layout.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace tokenscope::kernels::cuda {

WeightLayout::WeightLayout(const ModelShape& shape) {
    const std::int64_t h = shape.hidden;
    const std::int64_t q = shape.heads * shape.head_dim;
    const std::int64_t qkv = (shape.heads + 2 * shape.kv_heads) * shape.head_dim;
    add(WeightTensor::Embedding, -1, shape.vocab, h, DrawKind::Matrix, 1.0f / 128.0f);
    for (std::int32_t l = 0; l < shape.layers; ++l) {
        add(WeightTensor::AttnNorm, l, 1, h, DrawKind::Norm, 0.0f);
        add(WeightTensor::Qkv, l, h, qkv, DrawKind::Matrix, matrix_step(h));
        add(WeightTensor::O, l, q, h, DrawKind::Matrix, matrix_step(q));
        add(WeightTensor::MlpNorm, l, 1, h, DrawKind::Norm, 0.0f);
        add(WeightTensor::GateUp, l, h, 2 * shape.ffn, DrawKind::Matrix, matrix_step(h));
        add(WeightTensor::Down, l, shape.ffn, h, DrawKind::Matrix, matrix_step(shape.ffn));
    }
    add(WeightTensor::FinalNorm, -1, 1, h, DrawKind::Norm, 0.0f);
    add(WeightTensor::LmHead, -1, h, shape.vocab, DrawKind::Matrix, matrix_step(h));
}

void WeightLayout::add(WeightTensor tensor, std::int32_t layer, std::int64_t rows,
                       std::int64_t cols, DrawKind kind, float step) {
    TensorDraws t{tensor,
                  layer,
                  next_draw_,
                  static_cast<std::uint64_t>(rows),
                  static_cast<std::uint64_t>(cols),
                  kind,
                  step};
    next_draw_ += t.elements();
    tensors_.push_back(t);
}

const TensorDraws& WeightLayout::find(WeightTensor tensor, std::int32_t layer) const {
    for (const auto& t : tensors_)
        if (t.tensor == tensor && t.layer == layer) return t;
    throw std::out_of_range("weight layout: no tensor " + std::to_string(static_cast<int>(tensor)) +
                            " in layer " + std::to_string(layer));
}

float WeightLayout::matrix_step(std::int64_t fan_in) {
    const double limit = 1.0 / std::sqrt(static_cast<double>(fan_in));
    const int e = static_cast<int>(std::floor(std::log2(limit / 127.0)));
    return static_cast<float>(std::ldexp(1.0, e));
}

}  // namespace tokenscope::kernels::cuda
