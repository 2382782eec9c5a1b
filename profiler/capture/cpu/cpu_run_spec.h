#pragma once

#include <cstdint>
#include <string>

#include "capture/capture_config.h"
#include "kernels/decode_config.h"
#include "kernels/model_shape.h"
#include "trace/run_info.h"

namespace tokenscope::capture {

// A cpu-backend run with its shape resolved and checked against the host's limits.
struct CpuRunSpec {
    kernels::ModelShape shape;
    kernels::DecodeConfig decode;
    std::string run_name;
};

// Limits that keep a reference run from exhausting the host: its fp32 weights, and
// its working set (weights, KV cache and the prefill's activations).
inline constexpr std::uint64_t kCpuMaxWeightBytes = 2ull << 30;
inline constexpr std::uint64_t kCpuMaxWorkingBytes = 4ull << 30;

// Bytes the reference holds for a run: fp32 weights, KV cache and pass buffers.
std::uint64_t cpu_working_bytes(const kernels::ModelShape& shape,
                                const kernels::DecodeConfig& decode);
// Throws std::invalid_argument naming the problem: an unknown preset, a bad shape or
// config, or a shape too big for the host ("... use --preset tiny or --backend model").
CpuRunSpec resolve_cpu_run(const CaptureConfig& config);
// Shape, decode config and how the reference measures, as JSON.
std::string cpu_workload_json(const CpuRunSpec& spec);
// Source Cpu, host clock, "CPU (fp32 reference)" as the device, this host, now.
trace::RunInfo cpu_run_info(const CpuRunSpec& spec);

}  // namespace tokenscope::capture
