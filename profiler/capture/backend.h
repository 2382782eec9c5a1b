#pragma once

#include <string>
#include <string_view>

#include "capture_config.h"
#include "store/run_writer.h"
#include "trace/progress.h"

namespace tokenscope::capture {

struct Availability {
    bool ok = false;
    std::string reason;  // why not, in one line ("no CUDA driver found"); empty when ok
};

// One way of producing a decode run (model, cpu, cuda; docs/capture.md, Backends).
class Backend {
  public:
    virtual ~Backend() = default;

    virtual std::string_view name() const = 0;
    virtual Availability available() const = 0;
    // The workload shape run when the user names none: one this backend can run
    // on any machine it is available on (the cpu backend cannot hold llama-8b).
    virtual std::string_view default_preset() const { return kDefaultPreset; }
    // Whether CaptureConfig::gpu (a GPU preset) shapes the run: only a backend that
    // models a GPU takes one; those that measure run on the GPU that is there.
    virtual bool uses_gpu_preset() const { return false; }
    // Why `config` cannot run on this backend here, in one line; empty when it
    // can. Checked before any file is touched, so it is a usage problem.
    virtual std::string refusal(const CaptureConfig& config) const {
        (void)config;
        return {};
    }
    // Writes one run through `writer` (from StoreWriter::begin_run) and ends it:
    // finish() on success; on a failure end_failed_run() (failed_run.h: a write
    // error keeps the committed batches, anything else abandons), then the
    // exception goes on: trace::Cancelled when progress returned false, std::invalid_argument
    // naming the problem for a bad configuration. Progress counts iterations.
    virtual void run(const CaptureConfig& config, store::RunWriter& writer,
                     const trace::ProgressFn& progress) = 0;
};

}  // namespace tokenscope::capture
