#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "capture/cupti/cupti_tracer.h"
#include "capture/cupti/pm_sampler.h"
#include "capture/nvml_sampler.h"
#include "inject_config.h"
#include "store/store_writer.h"

namespace tokenscope::capture::inject {

// The traced program's side of `tokenscope-cli capture`: opens the run named by
// the environment, traces with CUPTI until exit, samples NVML, and finishes the
// run from an atexit handler. One per process, never destroyed: it must outlive
// every static destructor of the program it lives in.
class Injection {
  public:
    static Injection& instance();

    // True when tracing started. On any failure prints one line to stderr, leaves
    // no run behind (or an abandoned one) and returns false: the program runs on.
    bool start() noexcept;
    // Stops the tracer (forced flush), adds counters and GPU facts, finishes the
    // run. Safe to call twice and from atexit; never throws.
    void finish() noexcept;

    // Prefix of every line the library prints, so users see who is talking.
    static constexpr const char* kTag = "tokenscope inject: ";

  private:
    Injection() = default;
    bool start_tracing();
    void describe_gpu();

    std::mutex mutex_;
    bool attempted_ = false;
    bool tracing_ = false;
    InjectConfig config_;
    trace::RunInfo info_;
    std::unique_ptr<store::StoreWriter> store_;
    std::unique_ptr<store::RunWriter> writer_;
    std::unique_ptr<cupti::CuptiTracer> tracer_;
    std::unique_ptr<NvmlSampler> nvml_;
    std::unique_ptr<cupti::PmSampler> pm_;  // TOKENSCOPE_PM_SAMPLING=1 only
};

}  // namespace tokenscope::capture::inject
