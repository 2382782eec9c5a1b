// tokenscope-cli: argument dispatch only; the work lives in profiler/.
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "arg_parser.h"
#include "commands.h"
#include "man_page.h"
#include "trace/file_error.h"
#include "trace/progress.h"
#ifdef TOKENSCOPE_HAVE_CUPTI
#include "capture/cupti/cuda_runner.h"
#endif

namespace {

using Command = int (*)(const std::vector<std::string>&);

struct Entry {
    Command fn;
    const char* summary;
};

const std::map<std::string, Entry>& commands() {
    using namespace tokenscope::cli;
    static const std::map<std::string, Entry> table = {
        {"run",
         {cmd_run, "make a decode run (model, cpu or cuda backend) into a .tokenscope file"}},
        {"info", {cmd_info, "source, GPU, lanes, counts and diagnostics of each run"}},
        {"stats", {cmd_stats, "TTFT, TPOT, ITL, E2E and step latency percentiles"}},
        {"breakdown", {cmd_breakdown, "per-step attribution, verdict and roofline floor"}},
        {"heatmap", {cmd_heatmap, "P95 heatmap matrix (text, CSV or JSON)"}},
        {"diff", {cmd_diff, "compare two runs: metrics, kernels, attribution, delta heatmap"}},
        {"import", {cmd_import, "import foreign traces into a .tokenscope file"}},
        {"export", {cmd_export, "export a run as Chrome trace JSON (Perfetto)"}},
        {"capture", {cmd_capture, "trace any CUDA program into a run (needs a GPU)"}},
        {"sweep", {cmd_sweep, "runs over a grid of workload and serving parameters, with repeats"}},
        {"sweep-report",
         {cmd_sweep_report, "SLA attainment, Pareto frontier, fit and knee of a sweep"}},
        {"fleet", {cmd_fleet, "P95 heatmap, SLA calibration and alert rules from Prometheus"}},
    };
    return table;
}

void usage(std::ostream& out) {
    out << "usage: tokenscope-cli COMMAND FILE... [options]\n\ncommands:\n";
    for (const auto& [name, e] : commands())
        out << "  " << name << std::string(name.size() < 14 ? 14 - name.size() : 1, ' ')
            << e.summary << '\n';
    out << "\noptions:\n";
    for (const auto& o : tokenscope::cli::kTopOptions)
        out << "  " << o.name << std::string(14 - std::string(o.name).size(), ' ') << o.help
            << '\n';
    out << "\n'tokenscope-cli COMMAND --help' describes each command.\n"
           "exit status: 0 ok, 1 bad input or usage, 2 internal error, 3 no GPU or driver,\n"
           "130 cancelled (Ctrl-C)\n";
}

// Options of the program itself (not of a command); false when args[0] is none.
bool top_level_option(const std::string& arg, int* status) {
    if (arg == "--version") {
        std::cout << "tokenscope-cli " TOKENSCOPE_VERSION "\n";
    } else if (arg == "--help-man") {  // hidden: packaging/ makes tokenscope-cli.1 with it
        std::vector<tokenscope::cli::ManCommand> list;
        for (const auto& [name, e] : commands()) list.push_back({name, e.summary, e.fn});
        tokenscope::cli::print_man_page(list);
    } else {
        return false;
    }
    *status = tokenscope::cli::kExitOk;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tokenscope;
    std::vector<std::string> args(argv + 1, argv + argc);
#ifdef TOKENSCOPE_HAVE_CUPTI
    capture::cupti::install_cuda_runner();
#endif
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        usage(args.empty() ? std::cerr : std::cout);
        return args.empty() ? cli::kExitBadInput : cli::kExitOk;
    }
    if (int status = 0; top_level_option(args[0], &status)) return status;
    auto it = commands().find(args[0]);
    if (it == commands().end()) {
        std::cerr << "tokenscope-cli: unknown command '" << args[0] << "' (see --help)\n";
        return cli::kExitBadInput;
    }
    args.erase(args.begin());
    try {
        return it->second.fn(args);
    } catch (const cli::UsageError& e) {
        std::cerr << "tokenscope-cli " << e.message << '\n';
        return cli::kExitBadInput;
    } catch (const trace::FileError& e) {  // store and import errors alike
        std::cerr << "tokenscope-cli: " << e.what() << '\n';
        return cli::kExitBadInput;
    } catch (const trace::Cancelled&) {
        std::cerr << "tokenscope-cli: cancelled\n";
        return cli::kExitCancelled;
    } catch (const std::exception& e) {
        std::cerr << "tokenscope-cli: internal error: " << e.what() << '\n';
        return cli::kExitInternal;
    }
}
