#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <stdexcept>

#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

template <typename T>
struct TypeTag {
    using type = T;
};

// Calls f(TypeTag<storage type>) for the model dtype: one instantiation per dtype
// keeps the launch sites free of switch statements.
template <typename F>
void dispatch_dtype(DType dtype, F&& f) {
    switch (dtype) {
        case DType::Fp32:
            f(TypeTag<float>{});
            return;
        case DType::Fp16:
            f(TypeTag<__half>{});
            return;
        case DType::Bf16:
            f(TypeTag<__nv_bfloat16>{});
            return;
    }
    throw std::invalid_argument("unknown dtype");
}

inline unsigned int grid_for(long long n, int threads, long long cap = 1 << 20) {
    long long blocks = (n + threads - 1) / threads;
    if (blocks < 1) blocks = 1;
    return static_cast<unsigned int>(blocks < cap ? blocks : cap);
}

}  // namespace tokenscope::kernels::cuda
