#include "role_report.h"

#include <cmath>
#include <string>
#include <vector>

#include "format.h"
#include "text_table.h"

namespace tokenscope::cli {

using analysis::KernelRole;
using analysis::kKernelRoles;

namespace {

nlohmann::json role_times_json(const analysis::RoleTimes& t) {
    nlohmann::json out = nlohmann::json::object();
    for (KernelRole r : kKernelRoles) out[std::string(to_string(r))] = t[r];
    return out;
}

// Means become integer ns like every time in the JSON; the text shows them in ms.
nlohmann::json role_means_json(const std::array<double, analysis::kKernelRoleCount>& mean) {
    nlohmann::json out = nlohmann::json::object();
    for (KernelRole r : kKernelRoles)
        out[std::string(to_string(r))] = std::llround(mean[static_cast<std::size_t>(r)]);
    return out;
}

}  // namespace

void print_role_breakdown(std::ostream& out, const analysis::RoleBreakdown& b, bool csv) {
    if (!csv) out << "GPU time per kernel role (per phase: mean ms per step)\n";
    std::vector<std::string> header = {"role"};
    for (const auto& p : b.phases) header.push_back(std::string(to_string(p.phase)) + " ms");
    header.insert(header.end(), {"run total ms", "share"});
    TextTable t(header);
    const double run_total = static_cast<double>(b.run.total());
    auto add = [&](const std::string& label, auto&& phase_value, std::int64_t run_ns) {
        std::vector<std::string> row = {label};
        for (const auto& p : b.phases) row.push_back(format_ms(phase_value(p)));
        row.push_back(format_ms(static_cast<double>(run_ns)));
        row.push_back(run_total > 0 ? format_percent(static_cast<double>(run_ns) / run_total) : "");
        t.add_row(row);
    };
    for (KernelRole r : kKernelRoles)
        add(
            std::string(csv ? to_string(r) : display_name(r)),
            [&](const analysis::PhaseRoles& p) { return p.mean_ns[static_cast<std::size_t>(r)]; },
            b.run[r]);
    add(
        "total",
        [](const analysis::PhaseRoles& p) {
            return static_cast<double>(p.total.total()) / static_cast<double>(p.steps);
        },
        b.run.total());
    t.print(out, csv);
}

nlohmann::json role_breakdown_json(const analysis::RoleBreakdown& b) {
    nlohmann::json phases = nlohmann::json::array();
    for (const auto& p : b.phases)
        phases.push_back({{"phase", to_string(p.phase)},
                          {"steps", p.steps},
                          {"total_ns", role_times_json(p.total)},
                          {"mean_ns", role_means_json(p.mean_ns)}});
    return {
        {"run_ns", role_times_json(b.run)}, {"run_total_ns", b.run.total()}, {"phases", phases}};
}

}  // namespace tokenscope::cli
