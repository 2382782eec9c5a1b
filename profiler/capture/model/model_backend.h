#pragma once

#include "capture/backend.h"
#include "trace/run_data.h"

namespace tokenscope::capture {

// The `model` backend (docs/capture.md, Backends): the built-in workload's cost model on a
// GPU preset, with deterministic jitter. Always available; its runs have source
// Model and an info diagnostic "model_run" so no view mistakes them for measurements.
class ModelBackend : public Backend {
  public:
    std::string_view name() const override { return "model"; }
    bool uses_gpu_preset() const override { return true; }
    Availability available() const override { return {true, {}}; }
    void run(const CaptureConfig& config, store::RunWriter& writer,
             const trace::ProgressFn& progress) override;
};

// The same run kept in memory (through a MemoryRunWriter); throws like run().
trace::RunData simulate_model_run(const CaptureConfig& config,
                                  const trace::ProgressFn& progress = {});

}  // namespace tokenscope::capture
