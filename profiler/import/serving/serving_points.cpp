#include "serving_points.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "import/file_source.h"
#include "import/import_error.h"
#include "serving_importer.h"

namespace tokenscope::import {
namespace {

std::string number_text(double v) {
    if (v == std::floor(v) && std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    return nlohmann::json(v).dump();
}

}  // namespace

std::vector<ServingResultPoint> import_serving_points(const std::vector<std::string>& paths) {
    std::vector<ServingResultPoint> out;
    ServingImporter importer;
    for (const auto& path : paths) {
        ServingResultPoint p;
        p.path = path;
        p.run = importer.import(path, {}, {});
        // The importer keeps the file's scalar keys in the workload JSON.
        auto header = nlohmann::json::parse(p.run.info.workload_json, nullptr, false);
        if (header.is_discarded()) throw ImportError(path, "unreadable result header");
        if (auto it = header.find("request_rate");
            it != header.end() && it->is_number() && std::isfinite(it->get<double>()))
            p.params["request_rate"] = number_text(it->get<double>());
        if (auto it = header.find("max_concurrency"); it != header.end() && it->is_number())
            p.params["max_concurrency"] = number_text(it->get<double>());
        if (auto it = header.find("model_id"); it != header.end() && it->is_string())
            p.params["model_id"] = it->get<std::string>();
        out.push_back(std::move(p));
    }
    return out;
}

}  // namespace tokenscope::import
