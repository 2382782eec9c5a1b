#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/sweep/sweep_curve.h"
#include "analysis/sweep/sweep_summary.h"
#include "sweep_inputs.h"

namespace tokenscope::cli {

struct SweepReport {
    SweepInput input;
    analysis::SlaBounds sla;
    std::vector<analysis::SweepPointSummary> points;
    analysis::SweepCurve curve;  // y against the load axis: frontier, fit, knee
};

// The x of the curve when the user names none: the offered load if the sweep has
// one (qps, arrival, concurrency, request_rate, max_concurrency), else the first
// numeric axis, else throughput.
std::string default_x(const SweepReport& report);
// Figures in ns (ttft*, tpot*, e2e*): ms in text, integer ns in JSON.
bool is_time_figure(const std::string& figure);

void print_sweep_text(std::ostream& out, const SweepReport& report);
void print_sweep_csv(std::ostream& out, const SweepReport& report);
nlohmann::json sweep_json(const SweepReport& report);

}  // namespace tokenscope::cli
