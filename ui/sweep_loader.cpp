#include "sweep_loader.h"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

#include "store/sweep_store.h"

namespace tokenscope::ui {
namespace {

std::map<std::string, std::string> params_of(const std::string& json) {
    std::map<std::string, std::string> out;
    auto j = nlohmann::json::parse(json, nullptr, false);
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

}  // namespace

// The same reading as sweep-report's (app/cli/sweep_inputs.cpp), which the GUI
// cannot link: the last sweep of the file, its axes from the spec.
SweepData load_sweep_data(const QString& path) {
    SweepData d;
    d.path = path;
    try {
        store::SweepStore store(path.toStdString(), /*read_only=*/true);
        const auto sweeps = store.sweeps();
        if (sweeps.empty()) return d;
        const store::SweepInfo& info = sweeps.back();
        d.name = QString::fromStdString(info.name);
        auto spec = nlohmann::json::parse(info.spec_json, nullptr, false);
        if (spec.is_object() && spec.contains("axes"))
            for (const auto& a : spec["axes"]) d.axes.push_back(a.value("name", std::string()));
        for (const auto& p : store.points(info.id)) {
            if (d.points.empty() || d.points.back().point != p.point)
                d.points.push_back({p.point, params_of(p.params_json), {}});
            analysis::SweepRun run{p.run_id, store.requests(p.run_id),
                                   store.workload_json(p.run_id)};
            d.model = d.model || is_model_run(run.workload_json);
            d.points.back().runs.push_back(std::move(run));
        }
    } catch (const std::exception& e) {
        d.points.clear();
        d.error = QString::fromStdString(e.what());
    }
    return d;
}

std::string sweep_curve_x(const SweepData& d) {
    for (const char* load : {"qps", "arrival", "concurrency", "request_rate", "max_concurrency"})
        if (std::find(d.axes.begin(), d.axes.end(), load) != d.axes.end()) return load;
    for (const auto& a : d.axes) {
        bool numeric = !d.points.empty();
        for (const auto& p : d.points) {
            auto it = p.params.find(a);
            numeric = numeric && it != p.params.end() && !it->second.empty() &&
                      it->second.find_first_not_of("0123456789.") == std::string::npos;
        }
        if (numeric) return a;
    }
    return "throughput_tok_s";
}

}  // namespace tokenscope::ui
