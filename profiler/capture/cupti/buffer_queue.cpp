#include "buffer_queue.h"

namespace tokenscope::capture::cupti {

void BufferQueue::push(const FilledBuffer& buffer) {
    {
        std::lock_guard lock(mutex_);
        buffers_.push_back(buffer);
    }
    ready_.notify_one();
}

std::optional<FilledBuffer> BufferQueue::pop(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, timeout, [&] { return !buffers_.empty() || closed_; });
    if (buffers_.empty()) return std::nullopt;
    FilledBuffer b = buffers_.front();
    buffers_.pop_front();
    return b;
}

void BufferQueue::close() {
    {
        std::lock_guard lock(mutex_);
        closed_ = true;
    }
    ready_.notify_all();
}

bool BufferQueue::closed_and_empty() const {
    std::lock_guard lock(mutex_);
    return closed_ && buffers_.empty();
}

void BufferQueue::reopen() {
    std::lock_guard lock(mutex_);
    closed_ = false;
}

}  // namespace tokenscope::capture::cupti
