#include "cuda_run_info.h"

#include <nlohmann/json.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "capture/gpu_presets.h"
#include "capture/workload_json.h"

namespace tokenscope::capture::cupti {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string version_text(int v) {
    return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "";
}

// Peak figures come from the preset whose family ("H100" of "H100-SXM5") the
// device name contains; the longest family wins so "H200" never matches "H20".
trace::GpuInfo device_gpu(int device) {
    trace::GpuInfo gpu;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) gpu.name = prop.name;
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess)
        gpu.sm_count = sms;
    const std::string name = lower(gpu.name);
    std::size_t best = 0;
    for (const auto& preset : gpu_presets()) {
        const std::string family = lower(preset.name.substr(0, preset.name.find('-')));
        if (family.size() > best && name.find(family) != std::string::npos) {
            best = family.size();
            trace::GpuInfo g = preset;
            g.name = gpu.name;
            g.sm_count = gpu.sm_count;
            gpu = g;
        }
    }
    return gpu;
}

// The model backend's description of the workload, less the cost model's parts: this
// run was measured, on the device it names.
std::string cuda_workload_json(const ModelRunSpec& spec, const trace::GpuInfo& gpu) {
    nlohmann::json j = nlohmann::json::parse(model_workload_json(spec));
    j["backend"] = "cuda";
    j["measured"] = "traced with CUPTI: the workload's CUDA kernels on " + gpu.name;
    j["gpu"] = gpu.name;
    for (const char* key : {"cost_model", "host", "jitter"}) j.erase(key);
    return j.dump();
}

}  // namespace

trace::RunInfo cuda_run_info(const ModelRunSpec& spec, int device) {
    trace::RunInfo info;
    info.source = trace::Source::Cuda;
    info.clock = trace::ClockDomain::MonotonicRaw;
    info.gpu = device_gpu(device);
    info.name =
        spec.run_name.empty() ? "cuda " + spec.shape.name + " on " + info.gpu.name : spec.run_name;
    info.created_ns = wall_clock_ns();
    info.host = host_name();
    int v = 0;
    if (cudaDriverGetVersion(&v) == cudaSuccess) info.driver_version = version_text(v);
    if (cudaRuntimeGetVersion(&v) == cudaSuccess) info.cuda_version = version_text(v);
    info.workload_json = cuda_workload_json(spec, info.gpu);
    return info;
}

}  // namespace tokenscope::capture::cupti
