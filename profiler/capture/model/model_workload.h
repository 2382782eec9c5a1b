#pragma once

#include <string>

#include "capture/capture_config.h"
#include "kernels/cost_model.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"
#include "trace/gpu_info.h"
#include "trace/run_info.h"

namespace tokenscope::capture {

// A model run with every preset resolved.
struct ModelRunSpec {
    kernels::ModelShape shape;
    kernels::DecodeConfig decode;
    trace::GpuInfo gpu;
    JitterParams jitter;
    HostTiming host;
    std::string run_name;
};

// Throws std::invalid_argument naming the problem ("unknown GPU preset 'H300' (known:
// ...)", "decode config: batch (0) must be in 1..4096").
ModelRunSpec resolve_model_run(const CaptureConfig& config);
kernels::Roofline roofline_of(const trace::GpuInfo& gpu);
// Shape, decode config, strategy, GPU, host timing and the jitter model, as JSON.
std::string model_workload_json(const ModelRunSpec& spec);
// Source Model, "model <shape> on <gpu> (model)", this host, now.
trace::RunInfo model_run_info(const ModelRunSpec& spec);

}  // namespace tokenscope::capture
