#pragma once

#include <cstdint>

#include "host_device.h"

namespace tokenscope::kernels::cuda {

// The n-th output (0-based) of kernels::Rng(seed): SplitMix64's state after n + 1
// calls is seed + (n + 1) * golden, so any draw can be made independently. This is
// what lets the GPU fill billions of weights in parallel and still produce exactly
// the CPU reference's sequential stream.
TOKENSCOPE_HD inline std::uint64_t splitmix_draw(std::uint64_t seed, std::uint64_t n) {
    std::uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// How a tensor turns a draw into a weight (kernels/cpu/model_weights.cpp):
// matrices and the embedding q * step with q in -127..127, norms 1 + q / 128 with q
// in -15..15. Every value is exact in fp16 and bf16.
enum class DrawKind : std::uint8_t { Matrix, Norm };

TOKENSCOPE_HD inline float weight_from_draw(std::uint64_t draw, DrawKind kind, float step) {
    if (kind == DrawKind::Norm)
        return 1.0f + static_cast<float>(static_cast<int>(draw % 31) - 15) / 128.0f;
    return static_cast<float>(static_cast<int>(draw % 255) - 127) * step;
}

// Uniform in [0, 1) for the top-k draw of one sequence at one iteration: a stream of
// its own per (seed, sequence, iteration), so a sampled token never depends on how
// many sequences share the batch or on launch order.
TOKENSCOPE_HD inline double sample_uniform(std::uint64_t seed, std::uint64_t sequence,
                                           std::uint64_t iteration) {
    const std::uint64_t stream = splitmix_draw(seed ^ 0x70b4c5a3d1e2f600ull, sequence);
    return static_cast<double>(splitmix_draw(stream, iteration) >> 11) * 0x1.0p-53;
}

}  // namespace tokenscope::kernels::cuda
