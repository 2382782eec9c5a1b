#include <iostream>

#include "arg_parser.h"
#include "breakdown_report.h"
#include "commands.h"
#include "json_out.h"
#include "run_loader.h"

namespace tokenscope::cli {

int cmd_breakdown(const std::vector<std::string>& args) {
    ArgParser p("breakdown", "FILE... [options]",
                "Where each step's time went: gpu_compute, gpu_memory, nvlink, pcie, cpu and "
                "scheduling (every nanosecond to the highest-priority active category), the "
                "time each category had hidden, the verdict with the numbers behind it, a "
                "per-phase summary and the distance to the roofline floor.");
    p.flag("json", "print JSON (times in ns)").flag("csv", "print CSV rows");
    p.flag("steps", "also list every step");
    add_input_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    auto runs = load_inputs(p, "breakdown");
    nlohmann::json out = {{"runs", nlohmann::json::array()}};
    for (const auto& r : runs) {
        Breakdown b = compute_breakdown(r.data);
        if (p.has("json")) {
            out["runs"].push_back(breakdown_json(r, b, p.has("steps")));
            continue;
        }
        print_breakdown(std::cout, r, b, p.has("csv"));
        if (p.has("steps")) print_step_rows(std::cout, r, b, p.has("csv"));
    }
    if (p.has("json")) std::cout << json_text(out) << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
