#pragma once

#include <optional>
#include <string>

#include "host_timing.h"
#include "jitter_model.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"

namespace tokenscope::capture {

// The workload shape of a run that names none (on a backend that can hold it).
inline constexpr const char* kDefaultPreset = "llama-8b";

// What a capture runs. Backends ignore the fields that are not theirs.
struct CaptureConfig {
    std::string model = kDefaultPreset;        // a kernels model preset
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

// What a decode run starts from when the user sets nothing, read by `tokenscope-cli run`
// for its option defaults and by the GUI's run dialog for its fields: 8 requests with
// 512-token prompts and 128 new tokens each, the llama-8b shape on the H100 preset.
// (kernels::DecodeConfig's own 1 / 128 / 64 is the small decode that sweep points
// start from and the kernel tests build on.)
inline CaptureConfig run_defaults() {
    CaptureConfig c;
    c.decode.batch = 8;
    c.decode.prompt_len = 512;
    c.decode.new_tokens = 128;
    return c;
}

}  // namespace tokenscope::capture
