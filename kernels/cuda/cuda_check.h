#pragma once

#include <cuda_runtime.h>

#include "cuda_error.h"

namespace tokenscope::kernels::cuda {

// Throws CudaError("<what>: <cudaGetErrorString>") unless status is cudaSuccess.
void check_cuda(cudaError_t status, const char* what);

// After a launch: the launch error always; with TOKENSCOPE_CUDA_DEBUG=1 in the
// environment also a stream synchronize, so an asynchronous fault names its kernel.
void check_launch(const char* kernel, cudaStream_t stream);
bool cuda_debug_mode();

}  // namespace tokenscope::kernels::cuda
