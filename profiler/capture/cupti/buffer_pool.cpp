#include "buffer_pool.h"

#include <cstdlib>
#include <new>
#include <stdexcept>

namespace tokenscope::capture::cupti {
namespace {

constexpr std::size_t kAlign = 8;  // CUPTI's ACTIVITY_RECORD_ALIGNMENT

std::uint8_t* try_allocate(std::size_t bytes) {
    return static_cast<std::uint8_t*>(
        std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign));
}

}  // namespace

BufferPool::BufferPool(std::size_t buffer_bytes, std::size_t max_buffers, std::size_t preallocate)
    : buffer_bytes_(buffer_bytes), max_buffers_(max_buffers) {
    if (buffer_bytes == 0 || max_buffers == 0)
        throw std::invalid_argument("CUPTI buffer pool: buffer size and count must be > 0");
    for (std::size_t i = 0; i < preallocate && i < max_buffers; ++i) {
        std::uint8_t* p = try_allocate(buffer_bytes_);
        if (p == nullptr) throw std::bad_alloc();
        all_.push_back(p);
        free_.push_back(p);
    }
}

BufferPool::~BufferPool() {
    for (auto* p : all_) std::free(p);
}

std::uint8_t* BufferPool::acquire() {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
        auto* p = free_.back();
        free_.pop_back();
        return p;
    }
    if (all_.size() >= max_buffers_) {
        ++refused_;
        return nullptr;
    }
    // CUPTI's request callback must not throw into CUPTI: a failed allocation is a
    // refused buffer, counted like a full pool.
    std::uint8_t* p = try_allocate(buffer_bytes_);
    if (p == nullptr) {
        ++refused_;
        return nullptr;
    }
    all_.push_back(p);
    return p;
}

void BufferPool::release(std::uint8_t* buffer) {
    if (buffer == nullptr) return;
    std::lock_guard lock(mutex_);
    free_.push_back(buffer);
}

std::size_t BufferPool::allocated() const {
    std::lock_guard lock(mutex_);
    return all_.size();
}

std::size_t BufferPool::refused() const {
    std::lock_guard lock(mutex_);
    return refused_;
}

}  // namespace tokenscope::capture::cupti
