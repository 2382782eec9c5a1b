#include "backend_registry.h"

#include "model_backend.h"

// The cpu and cuda backends arrive in their own files; the registry lists what is built.
#if __has_include("cpu_backend.h")
#include "cpu_backend.h"
#define TOKENSCOPE_HAVE_CPU_BACKEND 1
#endif
#if __has_include("cuda_backend.h")
#include "cuda_backend.h"
#define TOKENSCOPE_HAVE_CUDA_BACKEND 1
#endif

namespace tokenscope::capture {

std::vector<std::string> backend_names() {
    std::vector<std::string> names = {"model"};
#ifdef TOKENSCOPE_HAVE_CPU_BACKEND
    names.push_back("cpu");
#endif
#ifdef TOKENSCOPE_HAVE_CUDA_BACKEND
    names.push_back("cuda");
#endif
    return names;
}

std::unique_ptr<Backend> make_backend(std::string_view name) {
    if (name == "model") return std::make_unique<ModelBackend>();
#ifdef TOKENSCOPE_HAVE_CPU_BACKEND
    if (name == "cpu") return std::make_unique<CpuBackend>();
#endif
#ifdef TOKENSCOPE_HAVE_CUDA_BACKEND
    if (name == "cuda") return std::make_unique<CudaBackend>();
#endif
    return nullptr;
}

}  // namespace tokenscope::capture
