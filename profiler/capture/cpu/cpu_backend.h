#pragma once

#include "capture/backend.h"
#include "trace/run_data.h"

namespace tokenscope::capture {

// The `cpu` backend (docs/capture.md, Backends): the workload's fp32 reference run on this
// host and timed with real clocks, so any machine can make a measured run. Always
// available; run() refuses shapes too big for the host (cpu_run_spec.h) with a
// std::invalid_argument that suggests --preset tiny or the model backend.
class CpuBackend : public Backend {
  public:
    std::string_view name() const override { return "cpu"; }
    Availability available() const override { return {true, {}}; }
    std::string_view default_preset() const override { return "tiny"; }
    std::string refusal(const CaptureConfig& config) const override;
    void run(const CaptureConfig& config, store::RunWriter& writer,
             const trace::ProgressFn& progress) override;
};

// The same run kept in memory (through a MemoryRunWriter); throws like run().
trace::RunData measure_cpu_run(const CaptureConfig& config, const trace::ProgressFn& progress = {});

}  // namespace tokenscope::capture
