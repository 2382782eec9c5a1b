#include "capture/cpu/cpu_backend.h"

#include <stdexcept>

#include "capture/cpu/cpu_run_recorder.h"
#include "capture/cpu/cpu_run_spec.h"
#include "capture/failed_run.h"
#include "capture/memory_run_writer.h"
#include "kernels/cpu/reference_decoder.h"

namespace tokenscope::capture {
namespace {

// Iterations still to come are unknown for speculative decoding (acceptance is
// measured): at most one per remaining token, so done / (done + remaining) only grows.
std::int64_t total_estimate(const kernels::cpu::ReferenceDecoder& d, const kernels::DecodeConfig& c,
                            std::int64_t done) {
    if (c.strategy != kernels::Strategy::Speculative) return c.new_tokens;
    return done + (c.new_tokens - d.tokens_generated());
}

void decode_run(const CpuRunSpec& spec, store::RunWriter& writer,
                const trace::ProgressFn& progress) {
    // Weights are made before the requests arrive, as a server loads its model first.
    const kernels::cpu::ModelWeights weights(spec.shape, spec.decode.seed);
    kernels::cpu::ReferenceDecoder decoder(weights, spec.decode);
    CpuRunRecorder recorder(writer, spec.decode);
    recorder.begin();
    std::int64_t done = 0;
    while (!decoder.done()) {
        recorder.iteration_begin();
        const auto result = decoder.step(&recorder);
        recorder.iteration_end(result);
        writer.poll();
        ++done;
        if (progress && !progress(done, total_estimate(decoder, spec.decode, done)))
            throw trace::Cancelled();
    }
    recorder.end();
}

}  // namespace

std::string CpuBackend::refusal(const CaptureConfig& config) const {
    try {
        (void)resolve_cpu_run(config);
        return {};
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
}

void CpuBackend::run(const CaptureConfig& config, store::RunWriter& writer,
                     const trace::ProgressFn& progress) {
    try {
        const CpuRunSpec spec = resolve_cpu_run(config);
        writer.update_info(cpu_run_info(spec));
        decode_run(spec, writer, progress);
        writer.finish();
    } catch (...) {
        end_failed_run(writer, std::current_exception());
        throw;
    }
}

trace::RunData measure_cpu_run(const CaptureConfig& config, const trace::ProgressFn& progress) {
    MemoryRunWriter writer;
    CpuBackend().run(config, writer, progress);
    return writer.take();
}

}  // namespace tokenscope::capture
