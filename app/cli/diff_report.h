#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/compare/diff.h"
#include "input_runs.h"

namespace tokenscope::cli {

void print_diff(std::ostream& out, const LoadedRun& a, const LoadedRun& b,
                const analysis::RunDiff& d, std::size_t top, bool csv);
nlohmann::json diff_json(const LoadedRun& a, const LoadedRun& b, const analysis::RunDiff& d);

}  // namespace tokenscope::cli
