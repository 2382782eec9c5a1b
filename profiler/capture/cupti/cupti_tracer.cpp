#include "cupti_tracer.h"

#include <cupti.h>

#include <stdexcept>
#include <string>

#include "cupti_error.h"
#include "record_decoder.h"
#include "record_drain.h"

namespace tokenscope::capture::cupti {
namespace {

// CUPTI's buffer callbacks carry no user pointer, so they find the running tracer here.
std::atomic<CuptiTracer*> g_active{nullptr};

}  // namespace

struct TracerCallbacks {
    static void CUPTIAPI requested(std::uint8_t** buffer, std::size_t* size,
                                   std::size_t* max_records) {
        if (auto* t = g_active.load()) return t->on_requested(buffer, size, max_records);
        *buffer = nullptr;
        *size = 0;
        *max_records = 0;
    }
    static void CUPTIAPI completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                                   std::size_t, std::size_t valid_bytes) {
        std::size_t dropped = 0;
        auto* t = g_active.load();
        if (t != nullptr &&
            cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS)
            t->dropped_ += static_cast<std::int64_t>(dropped);
        if (t != nullptr) t->on_completed(buffer, valid_bytes);
    }
};

CuptiTracer::CuptiTracer(TracerOptions options) : options_(std::move(options)) {}

CuptiTracer::~CuptiTracer() {
    if (!running()) return;
    try {
        stop();
    } catch (...) {
        // A destructor cannot report; stop() explicitly to see failures.
    }
}

void CuptiTracer::on_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *buffer = pool_->acquire();
    *size = *buffer != nullptr ? pool_->buffer_bytes() : 0;
    *max_records = 0;  // fill it
}

void CuptiTracer::on_completed(std::uint8_t* buffer, std::size_t valid_bytes) {
    if (buffer == nullptr) return;
    queue_.push({buffer, valid_bytes});
}

void CuptiTracer::enable_all() {
    std::vector<CUpti_ActivityKind> kinds = {
        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
        CUPTI_ACTIVITY_KIND_MEMCPY2,           CUPTI_ACTIVITY_KIND_MEMSET,
        CUPTI_ACTIVITY_KIND_RUNTIME,           CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        CUPTI_ACTIVITY_KIND_OVERHEAD};
    if (options_.driver_api) kinds.push_back(CUPTI_ACTIVITY_KIND_DRIVER);
    if (options_.markers) kinds.push_back(CUPTI_ACTIVITY_KIND_MARKER);
    if (options_.external_correlation) kinds.push_back(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
    for (auto kind : kinds) {
        check_cupti(cuptiActivityEnable(kind),
                    ("cuptiActivityEnable(kind " + std::to_string(kind) + ")").c_str());
        enabled_.push_back(kind);
    }
}

void CuptiTracer::disable_all() noexcept {
    for (int kind : enabled_) cuptiActivityDisable(static_cast<CUpti_ActivityKind>(kind));
    enabled_.clear();
}

void CuptiTracer::start(store::RunWriter& writer) {
    CuptiTracer* expected = nullptr;
    if (!g_active.compare_exchange_strong(expected, this))
        throw std::logic_error("a CUPTI tracer is already running in this process");
    try {
        pool_ = std::make_unique<BufferPool>(options_.buffer_bytes, options_.max_buffers);
        decoder_ = std::make_unique<RecordDecoder>(writer, options_.decoder);
        clock_ = ClockSampler();
        clock_.sample();
        decoder_->set_clock(clock_.fit());
        last_refit_ = std::chrono::steady_clock::now();
        check_cupti(
            cuptiActivityRegisterCallbacks(TracerCallbacks::requested, TracerCallbacks::completed),
            "cuptiActivityRegisterCallbacks");
        enable_all();
        if (options_.flush_period_ms > 0) cuptiActivityFlushPeriod(options_.flush_period_ms);
        writer_tick_ = PeriodicTick();
        if (options_.on_writer_tick)
            writer_tick_ = PeriodicTick([this, &writer] { options_.on_writer_tick(writer); },
                                        options_.writer_tick_interval);
        drain_ = std::make_unique<RecordDrain>(
            queue_, *pool_, *decoder_, writer,
            [this] {
                refit_clock();
                writer_tick_.poll();
            },
            options_.poll);
        drain_->start();
        writer_ = &writer;
    } catch (...) {
        disable_all();
        drain_.reset();
        decoder_.reset();
        g_active.store(nullptr);
        throw;
    }
}

void CuptiTracer::refit_clock() {
    // On the writer thread: the only user of clock_ and decoder_ while tracing.
    const auto now = std::chrono::steady_clock::now();
    if (now - last_refit_ < options_.refit_interval) return;
    last_refit_ = now;
    clock_.sample();
    decoder_->set_clock(clock_.fit());
}

void CuptiTracer::stop() {
    if (!running()) return;
    const CUptiResult flushed = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    disable_all();
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS)
        dropped_ += static_cast<std::int64_t>(dropped);
    std::exception_ptr error;
    try {
        drain_->stop();
        clock_.sample();
        decoder_->finish();
        write_diagnostics();
        if (flushed != CUPTI_SUCCESS) check_cupti(flushed, "cuptiActivityFlushAll");
    } catch (...) {
        error = std::current_exception();
    }
    writer_ = nullptr;
    g_active.store(nullptr);
    if (error) std::rethrow_exception(error);
}

void CuptiTracer::write_diagnostics() {
    using trace::Severity;
    const std::int64_t dropped = dropped_.load();
    const std::size_t refused = pool_->refused();
    writer_->add_diagnostic(
        {"cupti_dropped_records", dropped > 0 ? Severity::DataLoss : Severity::Info,
         static_cast<double>(dropped),
         dropped > 0 ? "CUPTI dropped records (" + std::to_string(refused) +
                           " buffer requests refused by a full pool); raise the pool size"
                     : "no CUPTI records were dropped"});
    const GpuClockFit fit = clock_.fit();
    writer_->add_diagnostic(
        {"clock_fit_residual_ns", Severity::Info, fit.residual_rms_ns(),
         "CUPTI clock mapped to CLOCK_MONOTONIC_RAW by " + std::to_string(fit.pair_count()) +
             " bracketed pairs: RMS residual " + std::to_string(fit.residual_rms_ns()) +
             " ns, max " + std::to_string(fit.residual_max_ns()) + " ns, drift " +
             std::to_string(fit.drift() * 1e6) + " ppm" +
             (fit.is_offset_only() ? " (offset only: span too short for a slope)" : "")});
}

DecoderStats CuptiTracer::stats() const {
    return decoder_ ? decoder_->stats() : DecoderStats{};
}

}  // namespace tokenscope::capture::cupti
