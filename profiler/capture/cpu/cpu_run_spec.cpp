#include "capture/cpu/cpu_run_spec.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "capture/workload_json.h"
#include "kernels/cpu/model_weights.h"

namespace tokenscope::capture {
namespace {

std::string gib(std::uint64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
    return buf;
}

}  // namespace

std::uint64_t cpu_working_bytes(const kernels::ModelShape& s, const kernels::DecodeConfig& d) {
    const auto seqs = static_cast<std::uint64_t>(d.sequences());
    const auto capacity = static_cast<std::uint64_t>(d.prompt_len + d.new_tokens + d.gamma);
    const std::uint64_t cache =
        2 * static_cast<std::uint64_t>(s.layers * s.kv_heads * s.head_dim) * seqs * capacity * 4;
    const auto widths = static_cast<std::uint64_t>(
        2 * s.hidden + (2 * s.heads + 2 * s.kv_heads) * s.head_dim + 3 * s.ffn);
    const std::uint64_t passes = seqs * static_cast<std::uint64_t>(d.prompt_len) * widths * 4;
    return kernels::cpu::ModelWeights::fp32_bytes(s) + cache + passes;
}

CpuRunSpec resolve_cpu_run(const CaptureConfig& config) {
    CpuRunSpec spec;
    if (config.shape) {
        spec.shape = *config.shape;
    } else if (auto m = kernels::find_model_preset(config.model)) {
        spec.shape = *m;
    } else {
        std::string known;
        for (const auto& n : kernels::model_preset_names())
            known += (known.empty() ? "" : ", ") + n;
        throw std::invalid_argument("unknown model preset '" + config.model + "' (known: " + known +
                                    ")");
    }
    spec.decode = config.decode;
    if (auto e = spec.shape.validate(); !e.empty())
        throw std::invalid_argument("model '" + spec.shape.name + "': " + e);
    if (auto e = spec.decode.validate(spec.shape); !e.empty())
        throw std::invalid_argument("decode config: " + e);
    const std::uint64_t weights = kernels::cpu::ModelWeights::fp32_bytes(spec.shape);
    if (weights > kCpuMaxWeightBytes)
        throw std::invalid_argument("model '" + spec.shape.name + "': its fp32 weights need " +
                                    gib(weights) + ", over the cpu backend's limit of " +
                                    gib(kCpuMaxWeightBytes) +
                                    "; use --preset tiny or --backend model");
    if (const auto total = cpu_working_bytes(spec.shape, spec.decode); total > kCpuMaxWorkingBytes)
        throw std::invalid_argument(
            "model '" + spec.shape.name +
            "' at this batch and context "
            "needs " +
            gib(total) +
            " on the host, over the cpu "
            "backend's limit of " +
            gib(kCpuMaxWorkingBytes) +
            "; reduce --batch, --prompt or --tokens, or use --backend model");
    spec.run_name = config.run_name.empty()
                        ? "cpu " + spec.shape.name + " fp32 reference (measured on the CPU)"
                        : config.run_name;
    return spec;
}

std::string cpu_workload_json(const CpuRunSpec& s) {
    nlohmann::json j;
    j["backend"] = "cpu";
    j["measured"] = "measured on the CPU: the fp32 reference on one host thread, real clocks";
    j["model"] = shape_json(s.shape);
    j["decode"] = decode_json(s.decode);
    j["reference"] = {
        {"compute_dtype", "fp32"},
        {"threads", 1},
        {"clock", "CLOCK_MONOTONIC_RAW"},
        {"weights", "seeded SplitMix64, q * 2^e with |q| <= 127 (exact in fp16 and bf16)"},
        {"bytes", "billed at the model dtype, as the GPU kernels would move them"},
        {"speculative", "draft = first draft_layers blocks; acceptance measured, not modelled"}};
    return j.dump();
}

trace::RunInfo cpu_run_info(const CpuRunSpec& spec) {
    trace::RunInfo info;
    info.name = spec.run_name;
    info.source = trace::Source::Cpu;
    info.created_ns = wall_clock_ns();
    info.host = host_name();
    info.gpu.name = "CPU (fp32 reference)";
    info.workload_json = cpu_workload_json(spec);
    info.clock = trace::ClockDomain::MonotonicRaw;
    return info;
}

}  // namespace tokenscope::capture
