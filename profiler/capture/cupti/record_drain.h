#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>

#include "buffer_pool.h"
#include "buffer_queue.h"
#include "record_decoder.h"
#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// The writer thread: takes completed buffers off the queue, decodes them into the
// RunWriter and gives them back to the pool. Between buffers, and at least every
// poll interval, it calls writer.poll() (the store's 100 ms commits) and `tick`
// (the tracer refits the clock there). Only this thread touches the writer while
// it runs.
class RecordDrain {
  public:
    using Tick = std::function<void()>;

    RecordDrain(BufferQueue& queue, BufferPool& pool, RecordDecoder& decoder,
                store::RunWriter& writer, Tick tick = {},
                std::chrono::milliseconds poll = std::chrono::milliseconds(10));
    ~RecordDrain();
    RecordDrain(const RecordDrain&) = delete;
    RecordDrain& operator=(const RecordDrain&) = delete;

    void start();
    // Closes the queue, decodes what is left, joins, and rethrows what failed on
    // the writer thread (a full disk, say). Call after the last push.
    void stop();

    std::int64_t buffers() const { return buffers_.load(); }
    std::int64_t records() const { return records_.load(); }

  private:
    void loop();

    BufferQueue& queue_;
    BufferPool& pool_;
    RecordDecoder& decoder_;
    store::RunWriter& writer_;
    Tick tick_;
    std::chrono::milliseconds poll_;
    std::thread thread_;
    std::exception_ptr error_;
    std::atomic<std::int64_t> buffers_{0};
    std::atomic<std::int64_t> records_{0};
};

}  // namespace tokenscope::capture::cupti
