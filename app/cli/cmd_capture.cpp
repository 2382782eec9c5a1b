#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <string>
#include <vector>

#include "arg_parser.h"
#include "breakdown_report.h"
#include "capture/capture_command.h"
#include "commands.h"
#include "store/store_reader.h"

namespace tokenscope::cli {
namespace {

// The runs the file holds now; none when it is not there yet or is not readable as ours.
std::vector<std::int64_t> run_ids_of(const std::string& path) {
    // A -wal beside it (a capture running or killed) would be read through a private copy.
    if (!std::filesystem::exists(path) || store::StoreReader::has_wal(path)) return {};
    try {
        return store::StoreReader(path, {.migrate = false, .check_whole_file = false}).run_ids();
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace

int cmd_capture(const std::vector<std::string>& args) {
    ArgParser p("capture", "--out FILE [--steps-from-nvtx REGEX] -- COMMAND [ARGS...]",
                "Runs COMMAND (any CUDA program: a vLLM or PyTorch decode script, a benchmark) "
                "traced through CUDA_INJECTION64_PATH and adds the trace to FILE as a run of "
                "source 'inject': kernels, copies, memsets, CUDA API calls, synchronisation, "
                "NVTX ranges and PCIe/NVLink counters. NVTX ranges whose name matches REGEX "
                "(ECMAScript, searched) become the run's steps; their index is the trailing "
                "number of the name, else their order. The exit status is COMMAND's own (128+N "
                "when signal N ended it); 1 for bad usage, 3 without an NVIDIA driver.");
    p.option("out", "FILE", "the .tokenscope file to add the run to");
    p.option("steps-from-nvtx", "REGEX", "NVTX ranges that frame steps (e.g. '^ProfilerStep#')");
    p.flag("pm-sampling",
           "also sample PCIe/NVLink through CUPTI PM sampling (needs profiling privileges)");
    p.parse(args);
    if (p.help_requested()) {
        std::cout << p.help_text();
        return kExitOk;
    }
    if (!p.has("out")) throw UsageError{"capture: --out FILE is required"};
    if (!p.positionals().empty())
        throw UsageError{"capture: unexpected argument '" + p.positionals().front() +
                         "'; put the command after '--'"};
    if (p.rest().empty()) throw UsageError{"capture: no command given; put it after '--'"};

    capture::CaptureCommandOptions options;
    options.out = p.get("out");
    options.steps_regex = p.get("steps-from-nvtx");
    options.argv = p.rest();
    options.pm_sampling = p.has("pm-sampling");
    try {
        std::regex check(options.steps_regex);
    } catch (const std::regex_error& e) {
        throw UsageError{"capture: bad --steps-from-nvtx pattern '" + options.steps_regex +
                         "': " + e.what()};
    }
    const std::vector<std::int64_t> before = run_ids_of(options.out);
    const int status = capture::run_capture(options);
    if (status == capture::kCaptureNoDriver || status == capture::kCaptureBadInput) return status;
    // The runs the traced program wrote, attributed once as `import` does. The capture has
    // succeeded whatever happens here: a failure is said, and the status stays the command's.
    try {
        std::vector<std::int64_t> added;
        for (std::int64_t id : run_ids_of(options.out))
            if (std::find(before.begin(), before.end(), id) == before.end()) added.push_back(id);
        attribute_written_runs(options.out, added, TerminalProgress::Mode::Auto);
    } catch (const std::exception& e) {
        std::cerr << "tokenscope-cli capture: the run is kept, but its attribution is not: "
                  << e.what() << '\n';
    }
    return status;
}

}  // namespace tokenscope::cli
