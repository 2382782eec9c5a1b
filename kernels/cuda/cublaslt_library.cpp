#include "cublaslt_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string_view>

namespace tokenscope::kernels::cuda {
namespace {

const std::string kSoname = "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR);

bool turned_off(std::string_view v) {
    return v == "0" || v == "off" || v == "builtin" || v == "no";
}

template <typename Fn>
bool resolve(void* handle, const char* name, Fn& fn, std::string& missing) {
    fn = reinterpret_cast<Fn>(dlsym(handle, name));
    if (fn == nullptr && missing.empty()) missing = name;
    return fn != nullptr;
}

}  // namespace

std::vector<std::string> CublasLtLibrary::candidates(const char* env_value, const char* cuda_home) {
    std::vector<std::string> out;
    if (env_value != nullptr && *env_value != '\0') {
        if (turned_off(env_value)) return out;
        out.emplace_back(env_value);
    }
    out.push_back(kSoname);  // the loader's own search path
    if (cuda_home != nullptr && *cuda_home != '\0')
        out.push_back(std::string(cuda_home) + "/lib64/" + kSoname);
    out.push_back("/usr/local/cuda/lib64/" + kSoname);
    return out;
}

const CublasLtLibrary& CublasLtLibrary::get() {
    static const CublasLtLibrary library;
    return library;
}

CublasLtLibrary::CublasLtLibrary() {
    const auto tried = candidates(std::getenv("TOKENSCOPE_CUBLASLT"), std::getenv("CUDA_HOME"));
    if (tried.empty()) {
        why_not_ = "TOKENSCOPE_CUBLASLT turns cuBLASLt off";
        return;
    }
    void* handle = nullptr;
    std::string last_error;
    for (const auto& name : tried) {
        handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) {
            path_ = name;
            break;
        }
        const char* e = dlerror();
        last_error = e != nullptr ? e : name + ": not loadable";
    }
    if (handle == nullptr) {
        why_not_ = kSoname + " not found (" + last_error + ")";
        return;
    }
    CublasLtApi api;
    std::string missing;
    resolve(handle, "cublasLtCreate", api.create, missing);
    resolve(handle, "cublasLtDestroy", api.destroy, missing);
    resolve(handle, "cublasLtGetVersion", api.get_version, missing);
    resolve(handle, "cublasLtMatmulDescCreate", api.desc_create, missing);
    resolve(handle, "cublasLtMatmulDescDestroy", api.desc_destroy, missing);
    resolve(handle, "cublasLtMatmulDescSetAttribute", api.desc_set, missing);
    resolve(handle, "cublasLtMatrixLayoutCreate", api.layout_create, missing);
    resolve(handle, "cublasLtMatrixLayoutDestroy", api.layout_destroy, missing);
    resolve(handle, "cublasLtMatmulPreferenceCreate", api.pref_create, missing);
    resolve(handle, "cublasLtMatmulPreferenceDestroy", api.pref_destroy, missing);
    resolve(handle, "cublasLtMatmulPreferenceSetAttribute", api.pref_set, missing);
    resolve(handle, "cublasLtMatmulAlgoGetHeuristic", api.heuristic, missing);
    resolve(handle, "cublasLtMatmul", api.matmul, missing);
    if (!missing.empty()) {
        why_not_ = path_ + " lacks " + missing;
        path_.clear();
        return;  // the handle stays open: harmless, and dlclose of such a library is not
    }
    version_ = api.get_version();
    // Built against cuBLAS 13.x: an older library of the same soname lacks what we call.
    if (version_ / 10000 != static_cast<std::size_t>(CUBLAS_VER_MAJOR)) {
        why_not_ = path_ + " is cuBLASLt " + std::to_string(version_) + ", not " +
                   std::to_string(CUBLAS_VER_MAJOR) + ".x";
        path_.clear();
        return;
    }
    api_ = api;
}

}  // namespace tokenscope::kernels::cuda
