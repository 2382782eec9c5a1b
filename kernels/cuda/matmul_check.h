#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

// A GPU self-test of launch_matmul against a double-precision CPU product, for the
// shapes that pick each kernel (split-k GEMV, unsplit GEMV, scalar GEMV, tiled
// GEMM) with and without a residual. Inputs are multiples of 1/16 in [-0.5, 0.5],
// exact in fp16 and bf16, so every partial sum is exact in fp32 whatever the
// summation order: fp32 outputs must match exactly, 16-bit outputs of the built-in
// kernels must equal the exact value rounded once. cuBLASLt's kernel for a 16-bit
// output with a residual (the prefill GEMM, 64x512x640 on an H200) rounds the product
// before adding the residual: such an output may differ from the once-rounded value by
// up to one ulp of the larger of |product| and |result| (counted in `rounded_twice`),
// and no more.
struct MatmulCase {
    std::int64_t m = 1, k = 1, n = 1;
    bool residual = false;
    bool fp32_out = true;
};

struct MatmulCheck {
    MatmulCase shape;
    std::int64_t mismatches = 0;     // outside the tolerance
    std::int64_t rounded_twice = 0;  // within one ulp, not the once-rounded value
    double max_abs_error = 0;
    std::string kernel;  // which path the shape takes
};

class MatmulEngine;

std::vector<MatmulCase> default_matmul_cases();
// The built-in kernels (launch_matmul), or with `engine` the engine's path (cuBLASLt where
// it runs). Throws CudaError on a CUDA failure (no GPU included).
MatmulCheck check_matmul(DType dtype, const MatmulCase& c, MatmulEngine* engine = nullptr);

}  // namespace tokenscope::kernels::cuda
