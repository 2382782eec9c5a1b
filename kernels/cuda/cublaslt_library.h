#pragma once

#include <cublasLt.h>

#include <cstddef>
#include <string>
#include <vector>

namespace tokenscope::kernels::cuda {

// The cuBLASLt entry points the matmul engine calls, resolved from the library at run
// time: the programs link no CUDA library beyond cudart (libcuda stays the driver's,
// found by cudart), and a machine without cuBLASLt still runs the built-in kernels.
struct CublasLtApi {
    decltype(&cublasLtCreate) create = nullptr;
    decltype(&cublasLtDestroy) destroy = nullptr;
    decltype(&cublasLtGetVersion) get_version = nullptr;
    decltype(&cublasLtMatmulDescCreate) desc_create = nullptr;
    decltype(&cublasLtMatmulDescDestroy) desc_destroy = nullptr;
    decltype(&cublasLtMatmulDescSetAttribute) desc_set = nullptr;
    decltype(&cublasLtMatrixLayoutCreate) layout_create = nullptr;
    decltype(&cublasLtMatrixLayoutDestroy) layout_destroy = nullptr;
    decltype(&cublasLtMatmulPreferenceCreate) pref_create = nullptr;
    decltype(&cublasLtMatmulPreferenceDestroy) pref_destroy = nullptr;
    decltype(&cublasLtMatmulPreferenceSetAttribute) pref_set = nullptr;
    decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
    decltype(&cublasLtMatmul) matmul = nullptr;
};

// libcublasLt.so.<the toolkit's cuBLAS major>, loaded once per process and never
// unloaded. Where from, in order: TOKENSCOPE_CUBLASLT when it names a file; the
// loader's search path (LD_LIBRARY_PATH, the ld.so cache); $CUDA_HOME/lib64;
// /usr/local/cuda/lib64. TOKENSCOPE_CUBLASLT=0 (or "off", "builtin") loads nothing,
// so that the built-in kernels run.
class CublasLtLibrary {
  public:
    static const CublasLtLibrary& get();

    bool loaded() const { return api_.matmul != nullptr; }
    const CublasLtApi& api() const { return api_; }
    const std::string& path() const { return path_; }
    std::size_t version() const { return version_; }         // cublasLtGetVersion(): 130002
    const std::string& why_not() const { return why_not_; }  // empty when loaded

    // The file names tried, in order, for a given TOKENSCOPE_CUBLASLT and CUDA_HOME
    // (either may be null); empty when the variable turns cuBLASLt off.
    static std::vector<std::string> candidates(const char* env_value, const char* cuda_home);

  private:
    CublasLtLibrary();
    CublasLtApi api_;
    std::string path_;
    std::size_t version_ = 0;
    std::string why_not_;
};

}  // namespace tokenscope::kernels::cuda
