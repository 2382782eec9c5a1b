#include "cuda_run_info.h"

#include <nlohmann/json.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "capture/workload_json.h"
#include "trace/gpu_catalog.h"

namespace tokenscope::capture::cupti {
namespace {

std::string version_text(int v) {
    return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : "";
}

// Peak figures come from the catalogue's model of the device's name (whole words, so
// "H200" never matches "H20"); an unknown device keeps only its name and SM count.
trace::GpuInfo device_gpu(int device) {
    trace::GpuInfo gpu;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) == cudaSuccess) gpu.name = prop.name;
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess)
        gpu.sm_count = sms;
    if (const auto* model = trace::find_gpu_model(gpu.name))
        gpu = trace::with_datasheet(std::move(gpu), *model);
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
