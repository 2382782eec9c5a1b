#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace tokenscope::import {

// Python's json.dump writes NaN and Infinity (mean_ttft_ms with no completed
// request, say), which strict JSON parsers reject: they become null, outside
// strings only.
void null_non_finite(std::string& text);

// The JSON a Python benchmark tool wrote: non-finite numbers read as null, and
// any parse error (a number beyond double too) an ImportError naming `path`.
nlohmann::json parse_python_json(const std::string& path, std::string text);

}  // namespace tokenscope::import
