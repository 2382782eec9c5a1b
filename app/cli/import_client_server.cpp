#include "import_client_server.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "analysis/join/client_server_join.h"
#include "breakdown_report.h"
#include "import/open_any.h"
#include "store/store_writer.h"
#include "trace/file_error.h"

namespace tokenscope::cli {
namespace {

// The one run of one input file, its progress mapped onto [from, to) of 1000.
trace::RunData read_one(const std::string& path, const import::ImportOptions& options,
                        const trace::ProgressFn& report, std::int64_t from, std::int64_t to) {
    auto runs = import::open_any(path, options, [&](std::int64_t done, std::int64_t total) {
        const double f = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0;
        return report(from + std::llround(f * static_cast<double>(to - from)), 1000);
    });
    if (runs.size() != 1)
        throw UsageError{"import --join: " + path + " holds " + std::to_string(runs.size()) +
                         " runs; --join takes one run per file (CLIENT, then SERVER)"};
    return std::move(runs.front());
}

std::int64_t seconds_to_ns(const ArgParser& p, const std::string& name) {
    const double s = p.get_double(name);
    if (!std::isfinite(s) || std::fabs(s) > 9.0e9)
        throw UsageError{"import: --" + name + " must be a number of seconds"};
    return std::llround(s * 1e9);
}

analysis::JoinOptions join_options(const ArgParser& p) {
    analysis::JoinOptions o;
    if (p.has("join-offset")) o.offset_ns = seconds_to_ns(p, "join-offset");
    o.max_offset_ns = seconds_to_ns(p, "join-search");
    o.max_lag_ns = std::llround(p.get_double("join-max-lag") * 1e6);
    if (o.max_offset_ns < 0 || o.max_lag_ns <= 0)
        throw UsageError{"import: --join-search and --join-max-lag must be positive"};
    return o;
}

void print_fit(const trace::RunData& joined) {
    for (const auto& d : joined.diagnostics) {
        if (d.name == analysis::kJoinOffsetDiagnostic)
            std::cout << "  clock offset: " << d.text << '\n';
        else if (d.name == analysis::kJoinResidualDiagnostic)
            std::printf("  residual: %.1f us (median lag behind the iteration's end)\n",
                        d.value / 1e3);
        else if (d.name == analysis::kJoinShareDiagnostic)
            std::printf("  tokens with an iteration: %.2f%%\n", d.value * 100.0);
        else if (d.name == "join_clock_weak_fit")
            std::cout << "  warning: " << d.text << '\n';
    }
    std::fflush(stdout);
}

}  // namespace

void add_client_server_options(ArgParser& p) {
    p.flag("join",
           "make ONE run of two inputs, CLIENT then SERVER: a load generator's per-request "
           "results (requests, token emissions) over an engine trace (iterations, kernels); "
           "each token attributed to the iteration that ended last before it, after a fitted "
           "clock offset");
    p.option("join-offset", "S",
             "--join: use this clock offset (server = client + S seconds) instead of fitting one");
    p.option("join-search", "S",
             "--join: where both clocks are Unix time, how far apart they may be (seconds)", "600");
    p.option("join-max-lag", "MS",
             "--join: the longest a token may follow its iteration's end (milliseconds)", "50");
}

bool import_client_server(const ArgParser& p, const import::ImportOptions& options,
                          TerminalProgress::Mode progress) {
    if (!p.has("join")) return false;
    if (p.positionals().size() != 2)
        throw UsageError{"import: --join needs exactly two inputs, CLIENT then SERVER"};
    analysis::JoinOptions join = join_options(p);
    const std::string& client_path = p.positionals()[0];
    const std::string& server_path = p.positionals()[1];
    TerminalProgress bar("joining", progress);
    const trace::ProgressFn report = bar.callback();
    trace::RunData client = read_one(client_path, options, report, 0, 300);
    trace::RunData server = read_one(server_path, options, report, 300, 800);
    join.progress = [&](std::int64_t done, std::int64_t total) {
        return report(800 + done * 150 / std::max<std::int64_t>(total, 1), 1000);
    };
    trace::RunData joined;
    try {
        joined = analysis::join_client_server(std::move(client), std::move(server), join);
    } catch (const analysis::JoinError& e) {  // the inputs' fault: name the file
        using Side = analysis::JoinError::Side;
        throw trace::FileError(e.side() == Side::Client   ? client_path
                               : e.side() == Side::Server ? server_path
                                                          : client_path + " and " + server_path,
                               e.problem());
    }
    const auto id = store::StoreWriter(p.get("out"))
                        .write_run(joined, [&](std::int64_t done, std::int64_t total) {
                            return report(950 + done * 50 / std::max<std::int64_t>(total, 1), 1000);
                        });
    bar.finish();
    attribute_written_runs(p.get("out"), {id}, progress);
    std::cout << "imported 1 joined run (" << joined.requests.size() << " requests, "
              << joined.steps.size() << " steps, " << joined.activities.size()
              << " activities) into " << p.get("out") << '\n';
    print_fit(joined);
    return true;
}

}  // namespace tokenscope::cli
