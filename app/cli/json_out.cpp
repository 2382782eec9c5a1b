#include "json_out.h"

namespace tokenscope::cli {

nlohmann::json to_json(const analysis::Distribution& d) {
    return {{"count", d.count}, {"mean", d.mean}, {"std", d.std}, {"min", d.min}, {"p50", d.p50},
            {"p90", d.p90},     {"p95", d.p95},   {"p99", d.p99}, {"max", d.max}};
}

nlohmann::json to_json(const analysis::CategoryNs& ns) {
    nlohmann::json out = nlohmann::json::object();
    for (auto c : analysis::kCategories)
        out[std::string(analysis::to_string(c))] = ns[static_cast<std::size_t>(c)];
    return out;
}

std::string json_text(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tokenscope::cli
