#include "capture/model/model_workload.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "capture/gpu_presets.h"
#include "capture/workload_json.h"

namespace tokenscope::capture {
namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

}  // namespace

ModelRunSpec resolve_model_run(const CaptureConfig& config) {
    ModelRunSpec spec;
    if (config.shape) {
        spec.shape = *config.shape;
    } else if (auto m = kernels::find_model_preset(config.model)) {
        spec.shape = *m;
    } else {
        throw std::invalid_argument("unknown model preset '" + config.model +
                                    "' (known: " + joined(kernels::model_preset_names()) + ")");
    }
    auto gpu = find_gpu_preset(config.gpu);
    if (!gpu)
        throw std::invalid_argument("unknown GPU preset '" + config.gpu +
                                    "' (known: " + joined(gpu_preset_names()) + ")");
    spec.gpu = *gpu;
    spec.decode = config.decode;
    spec.jitter = config.jitter;
    spec.host = config.host;
    spec.run_name = config.run_name;  // empty: each backend names its run
    if (auto e = spec.shape.validate(); !e.empty())
        throw std::invalid_argument("model '" + spec.shape.name + "': " + e);
    if (auto e = spec.decode.validate(spec.shape); !e.empty())
        throw std::invalid_argument("decode config: " + e);
    return spec;
}

kernels::Roofline roofline_of(const trace::GpuInfo& gpu) {
    kernels::Roofline r;
    r.peak_flops = gpu.peak_flops;
    r.peak_bandwidth = gpu.peak_bandwidth;
    r.link_bandwidth = gpu.pcie_bandwidth();
    return r;
}

std::string model_workload_json(const ModelRunSpec& s) {
    const auto roof = roofline_of(s.gpu);
    nlohmann::json j;
    j["backend"] = "model";
    j["model"] = shape_json(s.shape);
    j["decode"] = decode_json(s.decode);
    if (s.decode.strategy == kernels::Strategy::Speculative)
        j["decode"]["acceptance"] = s.decode.acceptance;
    j["gpu"] = s.gpu.name;
    j["cost_model"] = {
        {"formula", "kernel_ns = max(flops / peak_flops, bytes / peak_bandwidth) + overhead"},
        {"launch_overhead_ns", roof.launch_overhead_ns},
        {"copy_latency_ns", roof.copy_latency_ns},
        {"link_bandwidth", roof.link_bandwidth}};
    j["host"] = {{"launch_api_ns", s.host.launch_api_ns},
                 {"memcpy_api_ns", s.host.memcpy_api_ns},
                 {"launch_latency_ns", s.host.launch_latency_ns},
                 {"sync_min_ns", s.host.sync_min_ns},
                 {"scheduler_gap_ns", s.host.scheduler_gap_ns}};
    j["jitter"] = {
        {"enabled", s.jitter.enabled},
        {"prng", "splitmix64"},
        {"description",
         "durations d become d + ceil(d * e), e ~ exponential; per iteration a host hiccup "
         "with the given probability stalls the next launch; jitter only adds time"},
        {"kernel_mean", s.jitter.kernel_mean},
        {"api_mean", s.jitter.api_mean},
        {"hiccup_probability", s.jitter.hiccup_probability},
        {"hiccup_mean_ns", s.jitter.hiccup_mean_ns}};
    return j.dump();
}

trace::RunInfo model_run_info(const ModelRunSpec& spec) {
    trace::RunInfo info;
    info.name = spec.run_name.empty()
                    ? "model " + spec.shape.name + " on " + spec.gpu.name + " (model)"
                    : spec.run_name;
    info.source = trace::Source::Model;
    info.created_ns = wall_clock_ns();
    info.host = host_name();
    info.gpu = spec.gpu;
    info.workload_json = model_workload_json(spec);
    info.clock = trace::ClockDomain::MonotonicRaw;
    return info;
}

}  // namespace tokenscope::capture
