#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "buffer_pool.h"
#include "buffer_queue.h"
#include "clock_sampler.h"
#include "decoder_options.h"
#include "decoder_stats.h"
#include "periodic_tick.h"
#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

class RecordDecoder;
class RecordDrain;

struct TracerOptions {
    std::size_t buffer_bytes = BufferPool::kDefaultBufferBytes;  // 8 MiB
    std::size_t max_buffers = BufferPool::kDefaultMaxBuffers;
    DecoderOptions decoder;
    bool driver_api = true;  // DRIVER records as well as RUNTIME
    bool markers = true;     // NVTX ranges (needs NVTX_INJECTION64_PATH pointing at libcupti
                             // or at an injection library that forwards to CUPTI)
    // EXTERNAL_CORRELATION records: the cuda runner tags each plan entry's CUDA calls
    // (kPlanEntryTagKind) so the plan matcher finds a kernel's entry by its launch call.
    bool external_correlation = false;
    std::chrono::milliseconds poll{10};             // writer thread wake-up
    std::chrono::milliseconds refit_interval{250};  // a new clock pair this often
    // CUPTI hands over partly filled buffers this often, so a killed capture keeps
    // all but the last moments in the store; 0 = only full buffers.
    std::uint32_t flush_period_ms = 200;
    // Called on the writer thread, the only one that may touch the writer while the
    // tracer runs, at most every writer_tick_interval (first at start): where
    // another source streams into the run (NvmlSampler::drain). An exception there
    // ends the writer thread like a store failure and comes back from stop().
    std::function<void(store::RunWriter&)> on_writer_tick;
    std::chrono::milliseconds writer_tick_interval{50};
};

// Traces this process's CUDA activity into a RunWriter (docs/capture.md, Backends):
// CONCURRENT_KERNEL, MEMCPY, MEMCPY2, MEMSET, RUNTIME, DRIVER, SYNCHRONIZATION,
// OVERHEAD and MARKER records (and EXTERNAL_CORRELATION when asked). Buffers come from a pool;
// CUPTI's completion callback only queues a buffer; a writer thread decodes into the writer; stop()
// forces a flush. CUPTI is process-wide, so one tracer at a time may run.
//
// Between start() and stop() only the tracer's writer thread touches `writer`.
class CuptiTracer {
  public:
    explicit CuptiTracer(TracerOptions options = {});
    ~CuptiTracer();  // stops a running tracer; errors are swallowed there
    CuptiTracer(const CuptiTracer&) = delete;
    CuptiTracer& operator=(const CuptiTracer&) = delete;

    // Throws CuptiError when CUPTI cannot trace (no driver, no permission), and
    // std::logic_error when another tracer is running; nothing is left enabled.
    void start(store::RunWriter& writer);
    // Flushes, drains, and writes the diagnostics "cupti_dropped_records" and
    // "clock_fit_residual_ns" plus the decoder's. Rethrows a writer-thread failure.
    void stop();

    bool running() const { return writer_ != nullptr; }
    DecoderStats stats() const;
    std::int64_t dropped_records() const { return dropped_.load(); }

  private:
    friend struct TracerCallbacks;
    void on_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
    void on_completed(std::uint8_t* buffer, std::size_t valid_bytes);
    void enable_all();
    void disable_all() noexcept;
    void refit_clock();
    void write_diagnostics();

    TracerOptions options_;
    std::unique_ptr<BufferPool> pool_;
    BufferQueue queue_;
    ClockSampler clock_;
    std::unique_ptr<RecordDecoder> decoder_;
    std::unique_ptr<RecordDrain> drain_;
    store::RunWriter* writer_ = nullptr;
    std::vector<int> enabled_;  // CUpti_ActivityKind values
    std::atomic<std::int64_t> dropped_{0};
    std::chrono::steady_clock::time_point last_refit_;
    PeriodicTick writer_tick_;
};

}  // namespace tokenscope::capture::cupti
