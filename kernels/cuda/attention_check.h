#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

// A GPU self-test of launch_attention against a double-precision CPU softmax over the
// same 16-bit inputs, for the shapes that pick each kernel: the tensor-core prefill
// (full and partial 64-query tiles, a cached prefix, head_dim 64 and 128), a
// verification pass of a few queries and the split-KV decode. Errors come from P and
// the output rounded to the storage type; the tolerance says how much that allows.
struct AttentionCase {
    std::int64_t sequences = 1, positions = 1, cached = 0;
    std::int64_t heads = 1, kv_heads = 1, head_dim = 64;
};

struct AttentionCheck {
    AttentionCase shape;
    double max_abs_error = 0;
    double tolerance = 0;
    std::string kernel;  // which kernel the shape takes
    bool ok() const { return max_abs_error <= tolerance; }
};

std::vector<AttentionCase> default_attention_cases();
// Throws CudaError on a CUDA failure (no GPU included).
AttentionCheck check_attention(DType dtype, const AttentionCase& c);

}  // namespace tokenscope::kernels::cuda
