#pragma once

#include <cstdint>
#include <vector>

#include "capture/kernel_name_cache.h"
#include "kernels/cpu/kernel_observer.h"
#include "kernels/cpu/reference_decoder.h"
#include "kernels/decode_config.h"
#include "store/run_writer.h"

namespace tokenscope::capture {

// Writes what the reference decoder does, timed on CLOCK_MONOTONIC_RAW: a "main
// thread" lane with one range per iteration (the host call that runs it), a "cpu
// compute" lane with one kernel per kernel executed, in order, a step track with one
// range per iteration, one step per token per request and the requests.
class CpuRunRecorder : public kernels::cpu::KernelObserver {
  public:
    CpuRunRecorder(store::RunWriter& writer, const kernels::DecodeConfig& decode);

    static std::int64_t now_ns();

    // Adds the lanes; every request arrives now.
    void begin();
    void iteration_begin();
    // Emission: now, after the iteration's sampling (and beam KV reorder) finished.
    void iteration_end(const kernels::cpu::IterationResult& result);
    // Adds the requests and the diagnostics; call after the last iteration.
    void end();

    void kernel_begin() override;
    void kernel_end(const kernels::KernelSpec& work) override;

  private:
    void add_steps(const kernels::cpu::IterationResult& result, std::int64_t emission_ns);

    store::RunWriter& writer_;
    kernels::DecodeConfig decode_;
    std::uint16_t host_lane_ = 0, compute_lane_ = 0, step_lane_ = 0;
    std::uint32_t host_range_name_ = 0;
    KernelNameCache kernel_name_;
    std::int64_t arrival_ns_ = 0;
    std::int64_t iteration_start_ns_ = 0;
    std::int64_t kernel_start_ns_ = 0;
    std::int64_t last_emission_ns_ = 0;
    std::int64_t first_token_ns_ = 0;
    std::int32_t tokens_done_ = 0;  // per request
    std::int64_t drafted_ = 0, accepted_ = 0;
};

}  // namespace tokenscope::capture
