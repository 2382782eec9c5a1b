#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/attribution/role_breakdown.h"

namespace tokenscope::cli {

// "GPU time per kernel role": one row per role, a column per phase with the mean per
// step, then the run's total over every GPU operation and its share; --csv the same rows.
void print_role_breakdown(std::ostream& out, const analysis::RoleBreakdown& b, bool csv);

// breakdown --json's "roles": {"run_ns": {role: ns}, "run_total_ns", "phases": [{"phase",
// "steps", "total_ns": {role: ns}, "mean_ns": {role: ns}}]}, integer ns (docs/cli.md).
nlohmann::json role_breakdown_json(const analysis::RoleBreakdown& b);

}  // namespace tokenscope::cli
