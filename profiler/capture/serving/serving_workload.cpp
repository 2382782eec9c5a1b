#include "capture/serving/serving_workload.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "capture/workload_json.h"

namespace tokenscope::capture {

void validate_serving_config(const ServingConfig& c) {
    auto fail = [](const std::string& what) {
        throw std::invalid_argument("serving model: " + what);
    };
    if (c.tenants.empty() || c.tenants.size() > 10) fail("1 to 10 tenant classes");
    if (c.arrival.kind == ArrivalKind::Closed && c.arrival.concurrency < 1)
        fail("concurrency must be >= 1");
    if (c.arrival.kind != ArrivalKind::Closed && !(c.arrival.rate > 0.0))
        fail("arrival rate must be > 0");
    if (!(c.duration_s > 0.0) || c.duration_s > 30 * 86400.0)
        fail("duration must be in (0, 30 days]");
    if (c.prompt_len < 1 || c.output_len < 1) fail("prompt and output lengths must be >= 1");
    if (!(c.length_spread >= 0.0 && c.length_spread < 1.0)) fail("length spread must be in [0, 1)");
    if (c.max_num_seqs < 1) fail("max_num_seqs must be >= 1");
    if (c.token_budget < 1) fail("token budget must be >= 1");
    double weights = 0.0;
    for (const auto& t : c.tenants) {
        if (!(t.weight >= 0.0) || !(t.share >= 0.0)) fail("tenant weights and shares must be >= 0");
        weights += t.weight;
    }
    if (!(weights > 0.0)) fail("some tenant needs a weight > 0");
}

std::int32_t draw_tenant(const ServingConfig& config, kernels::Rng& rng) {
    if (config.tenants.size() == 1) return 0;
    double total = 0.0;
    for (const auto& t : config.tenants) total += t.weight;
    double u = rng.uniform() * total;
    for (std::size_t c = 0; c < config.tenants.size(); ++c) {
        u -= config.tenants[c].weight;
        if (u < 0.0) return static_cast<std::int32_t>(c);
    }
    return static_cast<std::int32_t>(config.tenants.size() - 1);
}

std::int64_t draw_length(std::int64_t length, double spread, kernels::Rng& rng) {
    if (spread <= 0.0) return length;
    const double lo = static_cast<double>(length) * (1.0 - spread);
    const double hi = static_cast<double>(length) * (1.0 + spread);
    return std::max<std::int64_t>(1, std::llround(lo + (hi - lo) * rng.uniform()));
}

trace::RunInfo serving_run_info(const ModelRunSpec& spec, const ServingConfig& c,
                                const std::string& request_tenants) {
    trace::RunInfo info = model_run_info(spec);
    if (spec.run_name.empty())
        info.name = "serving " + spec.shape.name + " on " + spec.gpu.name + " (model)";
    nlohmann::json j = nlohmann::json::parse(info.workload_json);
    j["backend"] = "serving-model";
    j.erase("decode");
    nlohmann::json arrival = {{"kind", to_string(c.arrival.kind)}};
    if (c.arrival.kind == ArrivalKind::Closed)
        arrival["concurrency"] = c.arrival.concurrency;
    else
        arrival["rate"] = c.arrival.rate;
    if (c.arrival.kind == ArrivalKind::Gamma) arrival["burstiness"] = c.arrival.burstiness;
    nlohmann::json tenants = nlohmann::json::array();
    for (const auto& t : c.tenants)
        tenants.push_back({{"name", t.name},
                           {"weight", t.weight},
                           {"share", t.share},
                           {"sla_ttft_ns", t.sla_ttft_ns},
                           {"sla_tpot_ns", t.sla_tpot_ns}});
    j["serving"] = {{"arrival", arrival},
                    {"duration_s", c.duration_s},
                    {"prompt_len", c.prompt_len},
                    {"output_len", c.output_len},
                    {"length_spread", c.length_spread},
                    {"max_num_seqs", c.max_num_seqs},
                    {"token_budget", c.token_budget},
                    {"chunked_prefill", c.chunked_prefill},
                    {"policy", to_string(c.policy)},
                    {"summary", c.summary},
                    {"token_steps", c.token_steps},
                    {"iteration_overhead_ns", c.iteration_overhead_ns},
                    {"seed", spec.decode.seed},
                    {"tenants", tenants}};
    j["request_tenants"] = request_tenants;
    info.workload_json = j.dump();
    return info;
}

}  // namespace tokenscope::capture
