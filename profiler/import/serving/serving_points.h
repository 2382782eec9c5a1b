#pragma once

#include <map>
#include <string>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import {

// One serving-benchmark result file (vLLM `bench serve --save-result`) as a sweep
// point: its run, and as parameters the load it was run at: request_rate (when
// finite) and max_concurrency (when set), plus model_id where the file names it.
struct ServingResultPoint {
    std::string path;
    std::map<std::string, std::string> params;
    trace::RunData run;
};

// Throws ImportError naming a file that is not a serving-benchmark result.
std::vector<ServingResultPoint> import_serving_points(const std::vector<std::string>& paths);

}  // namespace tokenscope::import
