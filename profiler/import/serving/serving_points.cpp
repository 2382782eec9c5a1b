#include "serving_points.h"

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "import/import_error.h"
#include "import/importer_registry.h"
#include "result_files.h"

namespace tokenscope::import {
namespace {

std::string number_text(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    return nlohmann::json(v).dump();
}

// The load a result was run at, from the scalar keys the importers keep in the workload.
std::map<std::string, std::string> load_params(const std::string& path, const trace::RunData& run) {
    auto header = nlohmann::json::parse(run.info.workload_json, nullptr, false);
    if (header.is_discarded()) throw ImportError(path, "unreadable result header");
    std::map<std::string, std::string> params;
    for (const char* key : {"request_rate", "max_concurrency"})
        if (auto it = header.find(key);
            it != header.end() && it->is_number() && std::isfinite(it->get<double>()))
            params[key] = number_text(it->get<double>());
    for (const char* key : {"strategy", "model_id"})
        if (auto it = header.find(key); it != header.end() && it->is_string())
            params[key] = it->get<std::string>();
    return params;
}

// <name>/profile_runs/run_NNNN/file: the runs of one AIPerf --num-profile-runs folder.
std::string multi_run_folder(const std::string& path) {
    std::filesystem::path run_dir = std::filesystem::path(path).parent_path();
    if (run_dir.parent_path().filename() != "profile_runs" ||
        !run_dir.filename().string().starts_with("run_"))
        return {};
    return run_dir.parent_path().parent_path().string();
}

std::vector<trace::RunData> results_of(const std::string& path) {
    const Importer& importer = default_registry().pick(path);
    if (importer.format() != "bench" && importer.format() != "client")
        throw ImportError(path,
                          "not a serving-benchmark or load-generator result (vLLM, SGLang, "
                          "guidellm, AIPerf, GenAI-Perf or LLMPerf JSON)");
    return importer.import_all(path, {}, {});
}

// Adds the run to the point it repeats, or as a point of its own.
void add_run(std::vector<ServingResultPoint>& out, const std::string& path,
             const std::string& folder, std::size_t first_of_file, trace::RunData run) {
    auto params = load_params(path, run);
    const std::string key = folder.empty() ? path : folder;
    for (std::size_t i = folder.empty() ? first_of_file : 0; i < out.size(); ++i)
        if (out[i].path == key && out[i].params == params) {
            out[i].runs.push_back(std::move(run));
            return;
        }
    out.push_back({key, std::move(params), {}});
    out.back().runs.push_back(std::move(run));
}

}  // namespace

std::vector<ServingResultPoint> import_serving_points(const std::vector<std::string>& paths) {
    std::vector<ServingResultPoint> out;
    std::size_t summary_only = 0;
    for (const auto& path : serving::result_files(paths)) {
        const std::string folder = multi_run_folder(path);
        const std::size_t first_of_file = out.size();
        for (auto& run : results_of(path)) {
            if (run.requests.empty()) {
                ++summary_only;
                continue;
            }
            add_run(out, path, folder, first_of_file, std::move(run));
        }
    }
    if (out.empty())
        throw ImportError(paths.empty() ? std::string("sweep") : paths.front(),
                          summary_only > 0
                              ? "the results hold summary statistics only; a sweep needs their "
                                "per-request data"
                              : "no result");
    return out;
}

}  // namespace tokenscope::import
