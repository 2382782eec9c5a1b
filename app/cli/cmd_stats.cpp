#include <iostream>

#include "analysis/join/stored_slow_tokens.h"
#include "analysis/metrics/client_figures.h"
#include "analysis/metrics/metrics.h"
#include "arg_parser.h"
#include "commands.h"
#include "input_runs.h"
#include "json_out.h"
#include "stats_report.h"
#include "token_report.h"

#include "store/store_reader.h"

namespace tokenscope::cli {

int cmd_stats(const std::vector<std::string>& args) {
    ArgParser p("stats", "FILE... [options]",
                "TTFT, TPOT, ITL, E2E and step-latency distributions (count, mean, std, min, "
                "P50, P90, P95, P99, max) of every run, and throughput.");
    p.flag("json", "print JSON (times in ns)").flag("csv", "print CSV rows");
    p.option("warmup-requests", "N", "exclude the first N requests by arrival", "0");
    p.option("warmup-steps", "N", "exclude tokens with index < N of each request from ITL/step",
             "0");
    p.option("slowest", "N",
             "also list the N slowest tokens by ITL with their iteration, batch and top kernels "
             "(0: none)",
             "0");
    add_input_options(p);
    if (!parse_or_help(p, args)) return kExitOk;
    analysis::MetricsOptions options;
    options.warmup_requests = static_cast<std::size_t>(p.get_int("warmup-requests"));
    options.warmup_steps = static_cast<std::size_t>(p.get_int("warmup-steps"));
    const long long slowest = p.get_int("slowest");
    if (slowest < 0) throw UsageError{"stats: --slowest must be 0 or more"};
    // The figures need only steps; the slowest tokens name their iterations' kernels, which
    // a run left in its file reads for those iterations alone (stored_slow_tokens.h).
    auto runs = load_inputs(p, "stats", Needs::Totals);
    nlohmann::json out = {{"runs", nlohmann::json::array()}};
    for (const auto& r : runs) {
        // Client results: over the requests inside the tool's measurement window.
        auto m = analysis::windowed_metrics(r.data, options);
        std::vector<analysis::SlowToken> slow;
        const analysis::SlowTokenOptions slow_options{.count = static_cast<std::size_t>(slowest)};
        if (slowest > 0 && r.data.in_file) {
            const store::StoreReader reader(r.path, store::ReaderOptions::pass());
            slow = analysis::stored_slowest_tokens(reader, r.data, slow_options);
        } else if (slowest > 0) {
            slow = analysis::slowest_tokens(r.data, slow_options);
        }
        if (p.has("json")) {
            out["runs"].push_back(stats_json(r, m));
            if (slowest > 0) out["runs"].back()["slowest_tokens"] = slow_tokens_json(slow);
        } else {
            print_stats(std::cout, r, m, p.has("csv"));
            if (slowest > 0) print_slow_tokens(std::cout, slow, p.has("csv"), false);
        }
    }
    if (p.has("json")) std::cout << json_text(out) << '\n';
    return kExitOk;
}

}  // namespace tokenscope::cli
