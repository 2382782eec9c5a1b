#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "trace/progress.h"

namespace tokenscope::import {

// Python's json.dump writes NaN and Infinity (mean_ttft_ms with no completed
// request, say), which strict JSON parsers reject: they become null, outside
// strings only.
void null_non_finite(std::string& text);

// The JSON a Python benchmark tool wrote: non-finite numbers read as null, and
// any parse error (a number beyond double too) an ImportError naming `path`.
nlohmann::json parse_python_json(const std::string& path, std::string text);

// Parsed, a JSON document takes several times its text (a number of a few
// characters becomes a 16-byte value, each object a tree of nodes): the whole
// working set is estimated as this many times the text.
inline constexpr std::uint64_t kJsonWorkingSetFactor = 5;

// Reads the whole file (plain or gzip) and parses it as parse_python_json does;
// refused with an ImportError naming its size, before it is read whole or as
// the decompressed text grows, when the estimated working set exceeds the
// import's trace::MemoryBudget or `max_text` bytes of text.
nlohmann::json read_python_json(const std::string& path, const trace::ProgressFn& progress,
                                std::uint64_t max_text = UINT64_MAX);

}  // namespace tokenscope::import
