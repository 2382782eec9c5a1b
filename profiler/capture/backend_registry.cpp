#include "backend_registry.h"

#include "capture/cpu/cpu_backend.h"
#include "capture/cuda/cuda_backend.h"
#include "capture/model/model_backend.h"

namespace tokenscope::capture {

// Every backend is always listed; one that cannot run here says why in available().
std::vector<std::string> backend_names() {
    return {"model", "cpu", "cuda"};
}

std::unique_ptr<Backend> make_backend(std::string_view name) {
    if (name == "model") return std::make_unique<ModelBackend>();
    if (name == "cpu") return std::make_unique<CpuBackend>();
    if (name == "cuda") return std::make_unique<CudaBackend>();
    return nullptr;
}

}  // namespace tokenscope::capture
