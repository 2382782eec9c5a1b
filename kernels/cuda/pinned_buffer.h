#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda_check.h"

namespace tokenscope::kernels::cuda {

// Page-locked host memory: copies from and to it are truly asynchronous DMA, so the
// copy stream's transfers show as the copy engine's own activities.
class PinnedBuffer {
  public:
    PinnedBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
        check_cuda(cudaMallocHost(&ptr_, bytes > 0 ? bytes : 1),
                   (std::string("cudaMallocHost(") + what + ")").c_str());
    }
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    ~PinnedBuffer() { cudaFreeHost(ptr_); }

    template <typename T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    std::size_t bytes() const { return bytes_; }

  private:
    void* ptr_ = nullptr;
    std::size_t bytes_;
};

}  // namespace tokenscope::kernels::cuda
