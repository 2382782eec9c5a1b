#pragma once

#include <optional>
#include <string>

#include "host_timing.h"
#include "jitter_model.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"

namespace tokenscope::capture {

// What a capture runs. Backends ignore the fields that are not theirs.
struct CaptureConfig {
    std::string model = "llama-8b";            // a kernels model preset
    std::optional<kernels::ModelShape> shape;  // a custom shape; overrides `model`
    std::string gpu = "H100-SXM5";             // model backend: a GPU preset
    kernels::DecodeConfig decode;
    JitterParams jitter;   // model backend
    HostTiming host;       // model backend
    std::string run_name;  // empty: the backend names the run
    // cuda backend: CUPTI PM sampling of PCIe/NVLink, which needs profiling privileges.
    bool pm_sampling = false;
    // cuda backend: decode iterations launched as CUDA graphs (one cudaGraphLaunch each).
    bool cuda_graphs = false;
};

}  // namespace tokenscope::capture
