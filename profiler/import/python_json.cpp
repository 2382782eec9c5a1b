#include "python_json.h"

#include <string_view>

#include "import_error.h"

namespace tokenscope::import {

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

nlohmann::json parse_python_json(const std::string& path, std::string text) {
    null_non_finite(text);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range for a number beyond double (41e308; found by fuzzing).
        throw ImportError(path, std::string("invalid JSON: ") + e.what());
    }
}

}  // namespace tokenscope::import
