#include "serving_importer.h"

#include <deque>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "import/import_error.h"
#include "result_lines.h"
#include "serving_figures.h"
#include "serving_rebuilder.h"

namespace tokenscope::import {
namespace {

std::string run_name(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    for (std::string_view ext : {".gz", ".jsonl", ".json"})
        if (name.size() > ext.size() && name.ends_with(ext)) name.resize(name.size() - ext.size());
    return name;
}

}  // namespace

bool ServingImporter::accepts(std::string_view head) const {
    std::size_t first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos || head[first] != '{') return false;
    if (head.find("\"traceEvents\"") != std::string_view::npos) return false;
    return head.find("\"ttfts\"") != std::string_view::npos ||
           head.find("\"mean_ttft_ms\"") != std::string_view::npos ||
           (head.find("\"model_id\"") != std::string_view::npos &&
            head.find("\"backend\"") != std::string_view::npos);
}

namespace {

// A result of a file that holds several: named after the load it was run at.
std::string result_label(json::Value result, std::size_t index) {
    for (const char* key : {"request_rate", "max_concurrency"})
        if (const json::Value v = result.find(key); v.is_number())
            return std::string(key) + "=" + nlohmann::json(v.number()).dump();
    return "#" + std::to_string(index + 1);
}

trace::RunData result_run(json::Value result, const std::string& file) {
    if (!result.find("ttfts") && serving::serving_tool(result) == serving::ServingTool::Sglang)
        return serving::summary_only_run(result);
    trace::RunData run = serving::ServingRebuilder(result).build();
    serving::add_serving_figures(run, result, file);
    return run;
}

}  // namespace

std::vector<trace::RunData> ServingImporter::import_all(const std::string& path,
                                                        const ImportOptions&,
                                                        const trace::ProgressFn& progress) const {
    std::deque<json::Tree> trees;
    const std::vector<json::Value> results = serving::read_result_documents(path, progress, trees);
    const std::string file = path.substr(path.find_last_of('/') + 1);
    std::vector<trace::RunData> runs;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const std::string where =
            results.size() > 1 ? "line " + std::to_string(i + 1) + ": " : std::string();
        if (!results[i].is_object())
            throw ImportError(path, where +
                                        "not a serving-benchmark result: top-level JSON is not "
                                        "an object");
        try {
            runs.push_back(result_run(results[i], file));
        } catch (const std::invalid_argument& e) {
            throw ImportError(path, where + e.what());
        } catch (const nlohmann::json::exception& e) {
            throw ImportError(path,
                              where + std::string("unexpected value in the results: ") + e.what());
        }
        runs.back().info.name = run_name(path);
        if (results.size() > 1) runs.back().info.name += " " + result_label(results[i], i);
    }
    if (runs.empty()) throw ImportError(path, "no result in the file");
    return runs;
}

trace::RunData ServingImporter::import(const std::string& path, const ImportOptions& options,
                                       const trace::ProgressFn& progress) const {
    auto runs = import_all(path, options, progress);
    if (runs.size() > 1)
        runs.front().count_diagnostic(
            "serving_results_in_file", trace::Severity::Info, static_cast<double>(runs.size()),
            "results (one JSON line per benchmark run) in the file: this run is the first; "
            "opened as a file (stats, info, import, the GUI) each is a run of its own");
    return std::move(runs.front());
}

}  // namespace tokenscope::import
