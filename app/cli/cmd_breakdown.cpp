#include <iostream>

#include "arg_parser.h"
#include "breakdown_report.h"
#include "commands.h"
#include "input_runs.h"
#include "json_out.h"
#include "rank_report.h"
#include "role_report.h"
#include "token_report.h"

namespace tokenscope::cli {

int cmd_breakdown(const std::vector<std::string>& args) {
    ArgParser p("breakdown", "FILE... [options]",
                "Where each step's time went: gpu_compute, gpu_memory, nvlink, pcie, cpu and "
                "scheduling (every nanosecond to the highest-priority active category), the "
                "time each category had hidden, the verdict with the numbers behind it, a "
                "per-phase summary, the distance to the roofline floor and the GPU time per "
                "kernel role (GEMM, attention, communication, ...) and phase.");
    p.flag("json", "print JSON (times in ns)").flag("csv", "print CSV rows");
    p.flag("steps", "also list every step");
    p.flag("ranks",
           "several ranks in one run (import --merge): per step the straggler rank and its "
           "lateness, each rank's communication overlap with computation and attribution");
    p.flag("by-token",
           "also list the slowest tokens by ITL, each with its iteration's batch, categories "
           "and top kernels (a joined client + server run; in a decode run, its own step)");
    p.option("slowest", "N", "how many tokens --by-token lists (0: all)", "20");
    add_input_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    const long long slowest = p.get_int("slowest");
    if (slowest < 0) throw UsageError{"breakdown: --slowest must be 0 or more"};
    const analysis::SlowTokenOptions token_options{.count = static_cast<std::size_t>(slowest)};
    // The slowest tokens and the ranks read the activities in memory; the breakdown itself
    // reads a summarised file slice by slice (DESIGN.md section 17).
    const bool whole = p.has("by-token") || p.has("ranks");
    auto runs = load_inputs(p, "breakdown", whole ? Needs::Activities : Needs::Totals);
    nlohmann::json out = {{"runs", nlohmann::json::array()}};
    for (const auto& r : runs) {
        Breakdown b = compute_breakdown(r, p);
        const analysis::RoleBreakdown& roles = b.roles;  // the one analysis computed them
        std::vector<analysis::SlowToken> slow;
        if (p.has("by-token")) slow = analysis::slowest_tokens(r.data, token_options);
        if (p.has("json")) {
            out["runs"].push_back(breakdown_json(r, b, p.has("steps")));
            out["runs"].back()["roles"] = role_breakdown_json(roles);
            if (p.has("by-token")) out["runs"].back()["slowest_tokens"] = slow_tokens_json(slow);
            if (p.has("ranks"))
                out["runs"].back()["ranks"] = rank_steps_json(r.data, analysis::rank_steps(r.data));
            continue;
        }
        print_breakdown(std::cout, r, b, p.has("csv"));
        if (p.has("csv")) std::cout << '\n';  // tables apart, as print_breakdown's are
        print_role_breakdown(std::cout, roles, p.has("csv"));
        std::cout << '\n';
        if (p.has("steps")) print_step_rows(std::cout, r, b, p.has("csv"));
        if (p.has("by-token")) print_slow_tokens(std::cout, slow, p.has("csv"), true);
        if (p.has("ranks"))
            print_rank_steps(std::cout, r, analysis::rank_steps(r.data), p.has("csv"));
    }
    if (p.has("json")) std::cout << json_text(out) << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
