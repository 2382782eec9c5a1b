#include "record_drain.h"

#include <utility>

namespace tokenscope::capture::cupti {

RecordDrain::RecordDrain(BufferQueue& queue, BufferPool& pool, RecordDecoder& decoder,
                         store::RunWriter& writer, Tick tick, std::chrono::milliseconds poll)
    : queue_(queue),
      pool_(pool),
      decoder_(decoder),
      writer_(writer),
      tick_(std::move(tick)),
      poll_(poll) {}

RecordDrain::~RecordDrain() {
    if (thread_.joinable()) {
        queue_.close();
        thread_.join();
    }
}

void RecordDrain::start() {
    queue_.reopen();
    error_ = nullptr;
    thread_ = std::thread([this] { loop(); });
}

void RecordDrain::stop() {
    queue_.close();
    if (thread_.joinable()) thread_.join();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void RecordDrain::loop() {
    while (!queue_.closed_and_empty()) {
        auto buffer = queue_.pop(poll_);
        if (buffer) {
            // After a failure the buffers still go back to the pool, undecoded, so
            // CUPTI is never starved; stop() reports the failure.
            if (!error_) {
                try {
                    records_ += static_cast<std::int64_t>(
                        decoder_.decode_buffer(buffer->data, buffer->valid_bytes));
                } catch (...) {
                    error_ = std::current_exception();
                }
            }
            pool_.release(buffer->data);
            ++buffers_;
        }
        if (error_) continue;
        try {
            writer_.poll();
            if (tick_) tick_();
        } catch (...) {
            error_ = std::current_exception();
        }
    }
}

}  // namespace tokenscope::capture::cupti
