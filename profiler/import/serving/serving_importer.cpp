#include "serving_importer.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "import/import_error.h"
#include "import/python_json.h"
#include "serving_rebuilder.h"

namespace tokenscope::import {
namespace {

std::string run_name(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') + 1);
    for (std::string_view ext : {".gz", ".json"})
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

trace::RunData ServingImporter::import(const std::string& path, const ImportOptions&,
                                       const trace::ProgressFn& progress) const {
    const nlohmann::json root = read_python_json(path, progress);
    if (!root.is_object())
        throw ImportError(path, "not a serving-benchmark result: top-level JSON is not an object");
    try {
        trace::RunData run = serving::ServingRebuilder(root).build();
        run.info.name = run_name(path);
        return run;
    } catch (const std::invalid_argument& e) {
        throw ImportError(path, e.what());
    } catch (const nlohmann::json::exception& e) {
        throw ImportError(path, std::string("unexpected value in the results: ") + e.what());
    }
}

}  // namespace tokenscope::import
