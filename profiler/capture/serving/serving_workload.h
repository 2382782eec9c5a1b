#pragma once

#include <cstdint>
#include <string>

#include "capture/model/model_workload.h"
#include "capture/serving/serving_config.h"
#include "kernels/rng.h"
#include "trace/run_info.h"

namespace tokenscope::capture {

// Throws std::invalid_argument naming the first unusable field.
void validate_serving_config(const ServingConfig& config);
// A class by the tenants' arrival weights; a length L uniform in [(1-s)L, (1+s)L], >= 1.
std::int32_t draw_tenant(const ServingConfig& config, kernels::Rng& rng);
std::int64_t draw_length(std::int64_t length, double spread, kernels::Rng& rng);

// Source Model, "serving <shape> on <gpu> (model)"; the workload JSON holds the shape,
// GPU, serving config, tenants and `request_tenants`: one digit per request (id 1
// first), the index of its class in `tenants`.
trace::RunInfo serving_run_info(const ModelRunSpec& spec, const ServingConfig& config,
                                const std::string& request_tenants);

}  // namespace tokenscope::capture
