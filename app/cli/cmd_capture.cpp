#include <iostream>
#include <regex>

#include "arg_parser.h"
#include "capture/capture_command.h"
#include "commands.h"

namespace tokenscope::cli {

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
    return capture::run_capture(options);
}

}  // namespace tokenscope::cli
