#include "capture/serving/batch_iteration_cost.h"

#include <cmath>

#include "kernels/pass_builder.h"

namespace tokenscope::capture {

using kernels::KernelOp;
using kernels::KernelSpec;
using u64 = std::uint64_t;

BatchIterationCost::BatchIterationCost(const kernels::ModelShape& shape,
                                       const kernels::Roofline& roofline)
    : shape_(shape), cost_(roofline) {}

BatchIteration BatchIterationCost::plan(const std::vector<BatchSlice>& slices) const {
    u64 tokens = 0, rows = 0, pairs = 0, cache_positions = 0;
    for (const auto& s : slices) {
        const auto c = static_cast<u64>(s.cached);
        const auto n = static_cast<u64>(s.positions);
        tokens += n;
        rows += s.samples ? 1 : 0;
        pairs += n * c + n * (n + 1) / 2;  // query j sees c cached and j new positions
        cache_positions += c + n;
    }
    // One "sequence" of all tokens gives the GEMMs their real M; attention is redone below.
    kernels::PassSpec pass{1,
                           false,
                           1,
                           0,
                           static_cast<std::int64_t>(tokens),
                           static_cast<std::int64_t>(rows),
                           kernels::Sampler::Argmax,
                           1,
                           0,
                           false};
    std::vector<KernelSpec> all;
    kernels::PassBuilder(shape_).append(pass, all);
    const u64 b = shape_.dtype_bytes();
    const u64 d = static_cast<u64>(shape_.head_dim);
    const u64 q = static_cast<u64>(shape_.heads) * d;
    const u64 kv = static_cast<u64>(shape_.kv_heads) * d;
    BatchIteration it;
    it.layers = shape_.layers;
    for (auto& k : all) {
        if (k.op == KernelOp::Attention) {
            k.flops = 4 * static_cast<u64>(shape_.heads) * d * pairs;
            k.bytes_read = tokens * q * b + 2 * cache_positions * kv * b;
        }
        if (k.op == KernelOp::Embedding)
            it.prefix.push_back(k);
        else if (k.layer >= 0)
            it.layer.push_back(k);
        else
            it.suffix.push_back(k);
    }
    return it;
}

std::int64_t BatchIterationCost::stretched_ns(const KernelSpec& k, double stretch) const {
    const std::int64_t base = cost_.kernel_ns(k);
    return base + static_cast<std::int64_t>(std::ceil(static_cast<double>(base) * stretch));
}

std::int64_t BatchIterationCost::total_ns(const BatchIteration& it, double stretch) const {
    std::int64_t layer = 0, rest = 0;
    for (const auto& k : it.layer) layer += stretched_ns(k, stretch);
    for (const auto& k : it.prefix) rest += stretched_ns(k, stretch);
    for (const auto& k : it.suffix) rest += stretched_ns(k, stretch);
    return rest + layer * it.layers;
}

}  // namespace tokenscope::capture
