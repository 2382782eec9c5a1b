#include "serving_importer.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "import/file_source.h"
#include "import/import_error.h"
#include "serving_rebuilder.h"

namespace tokenscope::import {
namespace {

// Python's json.dump writes NaN and Infinity (e.g. mean_ttft_ms with no
// completed request), which strict JSON parsers reject: they become null.
void null_non_finite(std::string& text) {
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            continue;
        }
        for (std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
            if (text.compare(i, word.size(), word) == 0) {
                text.replace(i, word.size(), "null");
                i += 3;
                break;
            }
        }
    }
}

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
    FileSource source(path);
    std::string text = source.read_all(progress);
    null_non_finite(text);
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for a number beyond double (41e308; found by fuzzing).
        throw ImportError(path, std::string("invalid JSON: ") + e.what());
    }
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
