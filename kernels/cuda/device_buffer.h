#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda_check.h"

namespace tokenscope::kernels::cuda {

// One device allocation, freed with its owner; zeroed so that no kernel ever reads
// uninitialised memory (unused KV positions, padding).
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    DeviceBuffer(std::size_t bytes, const char* what) : bytes_(bytes) {
        if (bytes == 0) return;
        check_cuda(cudaMalloc(&ptr_, bytes), (std::string("cudaMalloc(") + what + ")").c_str());
        check_cuda(cudaMemset(ptr_, 0, bytes), (std::string("cudaMemset(") + what + ")").c_str());
    }
    DeviceBuffer(DeviceBuffer&& o) noexcept
        : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(bytes_, o.bytes_);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }

    void* get() const { return ptr_; }
    template <typename T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    std::size_t bytes() const { return bytes_; }

  private:
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace tokenscope::kernels::cuda
