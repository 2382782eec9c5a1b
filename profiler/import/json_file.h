#pragma once

#include <cstdint>
#include <string>

#include "json/tree.h"
#include "trace/progress.h"

namespace tokenscope::import {

// Read into a json::Tree, a document takes its text and 16 bytes a value (a number
// of a few characters, or a key, is one node): the whole working set is estimated
// as this many times the text.
inline constexpr std::uint64_t kJsonWorkingSetFactor = 5;

// Reads the whole file (plain or gzip) into a string; refused with an ImportError
// naming its size, before it is read whole or as the decompressed text grows, when
// the estimated working set exceeds the import's trace::MemoryBudget or `max_text`
// bytes of text.
std::string read_json_text(const std::string& path, const trace::ProgressFn& progress,
                           std::uint64_t max_text = UINT64_MAX);

// The JSON a Python benchmark tool wrote: `text` (taken) parsed into `tree` as one
// document, NaN and Infinity outside strings read as null (Python's json.dump
// writes them, a mean over no request, say). Malformed JSON is an ImportError in
// the one style: "FILE: invalid JSON at byte N: what was expected".
json::Value parse_python_json(const std::string& path, json::Tree& tree, std::string text);

// read_json_text, then parse_python_json.
json::Value read_python_json(const std::string& path, json::Tree& tree,
                             const trace::ProgressFn& progress,
                             std::uint64_t max_text = UINT64_MAX);

// The ImportError for a syntax error of the file's JSON; `where` ("line 3: ") before it.
[[noreturn]] void throw_invalid_json(const std::string& path, const json::SyntaxError& e,
                                     const std::string& where = {});

}  // namespace tokenscope::import
