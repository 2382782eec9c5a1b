#include "stored_sweep.h"

#include <nlohmann/json.hpp>

#include "store/sweep_store.h"

namespace tokenscope::analysis {

std::map<std::string, std::string> sweep_params_of(const std::string& params_json) {
    std::map<std::string, std::string> out;
    auto j = nlohmann::json::parse(params_json, nullptr, false);
    if (!j.is_object()) return out;
    for (const auto& [k, v] : j.items()) out[k] = v.is_string() ? v.get<std::string>() : v.dump();
    return out;
}

bool is_model_run(const std::string& workload_json) {
    auto j = nlohmann::json::parse(workload_json, nullptr, false);
    if (!j.is_object()) return false;
    const std::string backend = j.value("backend", std::string());
    return backend == "model" || backend == "serving-model";
}

StoredSweep read_stored_sweep(const store::SweepStore& store, const store::SweepInfo& info) {
    StoredSweep out;
    out.name = info.name;
    auto spec = nlohmann::json::parse(info.spec_json, nullptr, false);
    if (spec.is_object() && spec.contains("axes"))
        for (const auto& a : spec["axes"]) out.axes.push_back(a.value("name", std::string()));
    for (const auto& p : store.points(info.id)) {
        if (out.points.empty() || out.points.back().point != p.point)
            out.points.push_back({p.point, sweep_params_of(p.params_json), {}});
        SweepRun run{p.run_id, store.requests(p.run_id), store.workload_json(p.run_id)};
        out.model = out.model || is_model_run(run.workload_json);
        out.points.back().runs.push_back(std::move(run));
    }
    return out;
}

}  // namespace tokenscope::analysis
