#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tokenscope::capture::cupti {

// Fixed-size, 8-byte aligned activity buffers, reused: CUPTI asks for one from its
// own thread while the writer thread gives drained ones back. Allocation happens
// only while the pool grows up to max_buffers; beyond that acquire() returns null,
// CUPTI drops records, and the drop count says so.
class BufferPool {
  public:
    static constexpr std::size_t kDefaultBufferBytes = 8u << 20;
    static constexpr std::size_t kDefaultMaxBuffers = 32;

    explicit BufferPool(std::size_t buffer_bytes = kDefaultBufferBytes,
                        std::size_t max_buffers = kDefaultMaxBuffers, std::size_t preallocate = 2);
    ~BufferPool();
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;

    std::uint8_t* acquire();  // null when every buffer is in use and the pool is full
    void release(std::uint8_t* buffer);

    std::size_t buffer_bytes() const { return buffer_bytes_; }
    std::size_t allocated() const;
    std::size_t refused() const;  // acquire() calls that returned null

  private:
    const std::size_t buffer_bytes_;
    const std::size_t max_buffers_;
    mutable std::mutex mutex_;
    std::vector<std::uint8_t*> all_;
    std::vector<std::uint8_t*> free_;
    std::size_t refused_ = 0;
};

}  // namespace tokenscope::capture::cupti
