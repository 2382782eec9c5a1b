#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "trace/progress.h"

namespace tokenscope::import::serving {

// The results in a serving-benchmark file: one JSON document (vLLM's --save-result,
// pretty-printed or not), or one per line (SGLang's bench_serving appends a line per run
// to its --output-file). Python's NaN / Infinity read as null. Throws ImportError naming
// the file (and the line of a JSONL file that is not a JSON object).
std::vector<nlohmann::json> read_result_documents(const std::string& path,
                                                  const trace::ProgressFn& progress);

}  // namespace tokenscope::import::serving
