#include "sweep_inputs.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "arg_parser.h"
#include "import/serving/serving_points.h"
#include "store/sweep_store.h"

namespace tokenscope::cli {
namespace {

bool is_sqlite(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[16] = {};
    in.read(head, sizeof head);
    return in.gcount() == 16 && std::string(head, 15) == "SQLite format 3";
}

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

SweepInput load_file(const std::string& path, std::int64_t sweep_id) {
    // Read-only and as it is: a file older than the sweep tables simply has no sweep.
    store::SweepStore store(path, /*read_only=*/true);
    auto sweeps = store.sweeps();
    if (sweeps.empty()) throw UsageError{"sweep-report: " + path + ": the file holds no sweep"};
    const store::SweepInfo* info = &sweeps.back();
    if (sweep_id != 0) {
        info = nullptr;
        for (const auto& s : sweeps)
            if (s.id == sweep_id) info = &s;
        if (!info)
            throw UsageError{"sweep-report: " + path + ": no sweep " + std::to_string(sweep_id)};
    }
    SweepInput in;
    in.source = path;
    in.name = info->name;
    auto spec = nlohmann::json::parse(info->spec_json, nullptr, false);
    if (spec.is_object() && spec.contains("axes"))
        for (const auto& a : spec["axes"]) in.axes.push_back(a.value("name", std::string()));
    for (const auto& p : store.points(info->id)) {
        if (in.points.empty() || in.points.back().point != p.point)
            in.points.push_back({p.point, params_of(p.params_json), {}});
        analysis::SweepRun run{p.run_id, store.requests(p.run_id), store.workload_json(p.run_id)};
        in.model = in.model || is_model_run(run.workload_json);
        in.points.back().runs.push_back(std::move(run));
    }
    return in;
}

}  // namespace

SweepInput load_sweep_input(const std::vector<std::string>& paths, std::int64_t sweep_id) {
    if (paths.empty()) throw UsageError{"sweep-report: FILE is required"};
    if (paths.size() == 1 && is_sqlite(paths[0])) return load_file(paths[0], sweep_id);
    SweepInput in;
    in.source = std::to_string(paths.size()) + " serving-benchmark results";
    in.name = "serving benchmark";
    auto results = import::import_serving_points(paths);
    bool rates = false, concurrency = false;
    for (std::size_t i = 0; i < results.size(); ++i) {
        auto& r = results[i];
        rates = rates || r.params.contains("request_rate");
        concurrency = concurrency || r.params.contains("max_concurrency");
        r.params["file"] = r.path;
        analysis::SweepRun run{static_cast<std::int64_t>(i + 1), std::move(r.run.requests), {}};
        in.points.push_back({static_cast<std::int32_t>(i), std::move(r.params), {}});
        in.points.back().runs.push_back(std::move(run));
    }
    if (rates) in.axes.push_back("request_rate");
    if (concurrency) in.axes.push_back("max_concurrency");
    return in;
}

}  // namespace tokenscope::cli
