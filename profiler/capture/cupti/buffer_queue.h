#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

namespace tokenscope::capture::cupti {

struct FilledBuffer {
    std::uint8_t* data = nullptr;
    std::size_t valid_bytes = 0;
};

// Completed CUPTI buffers on their way to the writer thread. push() is all the
// completion callback does: it must return quickly, CUPTI waits for it.
class BufferQueue {
  public:
    void push(const FilledBuffer& buffer);
    // The next buffer; nullopt when `timeout` passed with none, or when closed and empty.
    std::optional<FilledBuffer> pop(std::chrono::milliseconds timeout);
    // No more pushes will come; pop() drains what is left, then reports closed.
    void close();
    bool closed_and_empty() const;
    void reopen();

  private:
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<FilledBuffer> buffers_;
    bool closed_ = false;
};

}  // namespace tokenscope::capture::cupti
