#pragma once

// How the decode GEMV splits its work (layer_kernels.cu); CUDA-free so that sizing
// code and tests can use it without the CUDA headers.
#include <cstdint>

namespace tokenscope::kernels::cuda {

constexpr int kMaxGemvRows = 8;       // tokens a GEMV launch handles; more take the GEMM
constexpr int kGemvTileColumns = 32;  // columns per block of the scalar GEMV
// k ranges a GEMV over [k][n] weights is split into: enough blocks for about four
// per SM of an H100/H200, each with at least 256 rows of k.
std::int64_t gemv_splits(std::int64_t k, std::int64_t n);
// Floats of fp32 partials the split GEMV needs; 0 when unsplit.
std::int64_t gemv_partial_floats(std::int64_t k, std::int64_t n);

}  // namespace tokenscope::kernels::cuda
