#pragma once

#include <nlohmann/json.hpp>

#include "analysis/attribution/category.h"
#include "analysis/metrics/distribution.h"

namespace tokenscope::cli {

// docs/cli.md, JSON: a distribution is {count, mean, std, min, p50, p90, p95, p99, max}.
nlohmann::json to_json(const analysis::Distribution& d);
// {"gpu_compute": ns, ...} in the names of section 5.
nlohmann::json to_json(const analysis::CategoryNs& ns);
// Indented JSON text for stdout. Names from foreign traces may hold bytes that
// are not UTF-8: they become U+FFFD instead of a thrown type_error (status 2).
std::string json_text(const nlohmann::json& j);

}  // namespace tokenscope::cli
