#pragma once

#include <stdexcept>
#include <string>

namespace tokenscope::kernels::cuda {

// A CUDA runtime failure: the message names the call and carries the runtime's own
// error string ("cudaMalloc(kv cache): out of memory").
class CudaError : public std::runtime_error {
  public:
    explicit CudaError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace tokenscope::kernels::cuda
