#include "backend_registry.h"

#include "cpu_backend.h"
#include "cuda_backend.h"
#include "model_backend.h"

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
