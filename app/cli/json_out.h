#pragma once

#include <nlohmann/json.hpp>

#include "analysis/category.h"
#include "analysis/distribution.h"

namespace tokenscope::cli {

// DESIGN.md section 11: a distribution is {count, mean, std, min, p50, p90, p95, p99, max}.
nlohmann::json to_json(const analysis::Distribution& d);
// {"gpu_compute": ns, ...} in the names of section 5.
nlohmann::json to_json(const analysis::CategoryNs& ns);

}  // namespace tokenscope::cli
