#include "device_model.h"

#include <cmath>

#include "device_ops.h"

namespace tokenscope::kernels::cuda {

DeviceModel::DeviceModel(const ModelShape& shape, std::uint64_t seed, std::int64_t rope_positions,
                         cudaStream_t stream)
    : dtype_bytes_(shape.dtype_bytes()) {
    const WeightLayout layout(shape);
    weights_ = DeviceBuffer(layout.total_draws() * dtype_bytes_, "weights");
    for (const auto& t : layout.tensors()) {
        launch_init_weights(shape.dtype, tensor(layout, t.tensor, t.layer), t, seed, stream);
        check_cuda(cudaGetLastError(), "init_weights launch");
    }
    embedding_ = tensor(layout, WeightTensor::Embedding, -1);
    for (std::int32_t l = 0; l < shape.layers; ++l)
        layers_.push_back(LayerPointers{
            tensor(layout, WeightTensor::AttnNorm, l), tensor(layout, WeightTensor::Qkv, l),
            tensor(layout, WeightTensor::O, l), tensor(layout, WeightTensor::MlpNorm, l),
            tensor(layout, WeightTensor::GateUp, l), tensor(layout, WeightTensor::Down, l)});
    final_norm_ = tensor(layout, WeightTensor::FinalNorm, -1);
    lm_head_ = tensor(layout, WeightTensor::LmHead, -1);

    const auto cos = rope_table(shape.head_dim, rope_positions, false);
    const auto sin = rope_table(shape.head_dim, rope_positions, true);
    rope_half_elements_ = cos.size();
    rope_ = DeviceBuffer(2 * cos.size() * sizeof(float), "rope tables");
    check_cuda(
        cudaMemcpy(rope_.get(), cos.data(), cos.size() * sizeof(float), cudaMemcpyHostToDevice),
        "upload rope cos");
    check_cuda(cudaMemcpy(rope_.as<float>() + cos.size(), sin.data(), sin.size() * sizeof(float),
                          cudaMemcpyHostToDevice),
               "upload rope sin");
    check_cuda(cudaStreamSynchronize(stream), "init_weights");
}

void* DeviceModel::tensor(const WeightLayout& layout, WeightTensor t, std::int32_t layer) const {
    // Tensors sit in draw order in one allocation: offset = first draw * dtype bytes.
    return weights_.as<char>() + layout.find(t, layer).first_draw * dtype_bytes_;
}

std::vector<float> DeviceModel::rope_table(std::int64_t head_dim, std::int64_t positions,
                                           bool sine) {
    const std::int64_t half = head_dim / 2;
    std::vector<float> table(static_cast<std::size_t>(positions * half));
    for (std::int64_t p = 0; p < positions; ++p)
        for (std::int64_t i = 0; i < half; ++i) {
            const double freq =
                std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
            const double angle = static_cast<double>(p) * freq;
            table[static_cast<std::size_t>(p * half + i)] =
                static_cast<float>(sine ? std::sin(angle) : std::cos(angle));
        }
    return table;
}

}  // namespace tokenscope::kernels::cuda
