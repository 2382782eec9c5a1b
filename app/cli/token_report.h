#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "analysis/join/slow_tokens.h"
#include "input_runs.h"

namespace tokenscope::cli {

// The slowest tokens of a run (stats --slowest N, breakdown --by-token): one line
// each in the words, then a table with the ITL, the iteration, its batch,
// the dominant category and the top kernels; `categories` adds the iteration's
// six categories in ms (the breakdown's view).
void print_slow_tokens(std::ostream& out, const std::vector<analysis::SlowToken>& tokens, bool csv,
                       bool categories);
nlohmann::json slow_tokens_json(const std::vector<analysis::SlowToken>& tokens);

}  // namespace tokenscope::cli
