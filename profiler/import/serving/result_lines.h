#pragma once

#include <deque>
#include <string>
#include <vector>

#include "json/tree.h"
#include "trace/progress.h"

namespace tokenscope::import::serving {

// The results in a serving-benchmark file: one JSON document (vLLM's --save-result,
// pretty-printed or not), or one per line (SGLang's bench_serving appends a line per run
// to its --output-file), each read into a tree of `trees` (which the values point
// into). Python's NaN / Infinity read as null. Throws ImportError naming the file (with
// the byte offset of a syntax error, and the line of a JSONL file that is not a JSON
// object).
std::vector<json::Value> read_result_documents(const std::string& path,
                                               const trace::ProgressFn& progress,
                                               std::deque<json::Tree>& trees);

}  // namespace tokenscope::import::serving
