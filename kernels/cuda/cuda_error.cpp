#include <cstdlib>
#include <cstring>
#include <string>

#include "cuda_check.h"

namespace tokenscope::kernels::cuda {

void check_cuda(cudaError_t status, const char* what) {
    if (status == cudaSuccess) return;
    throw CudaError(std::string(what) + ": " + cudaGetErrorString(status));
}

bool cuda_debug_mode() {
    static const bool debug = [] {
        const char* v = std::getenv("TOKENSCOPE_CUDA_DEBUG");
        return v != nullptr && std::strcmp(v, "0") != 0 && *v != '\0';
    }();
    return debug;
}

void check_launch(const char* kernel, cudaStream_t stream) {
    // cudaGetLastError is an API call CUPTI traces: outside debug mode the runner checks
    // once per iteration instead, so a traced run shows only the workload's own calls.
    if (!cuda_debug_mode()) return;
    check_cuda(cudaGetLastError(), kernel);
    check_cuda(cudaStreamSynchronize(stream), kernel);
}

}  // namespace tokenscope::kernels::cuda
