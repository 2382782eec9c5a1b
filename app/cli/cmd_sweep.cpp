#include "arg_parser.h"
#include "commands.h"
#include "run_loader.h"

namespace tokenscope::cli {

// Placeholder while the sweep engine lands (issue 10); keeps the command table stable.
int cmd_sweep(const std::vector<std::string>& args) {
    ArgParser p("sweep", "[options]", "Not available yet in this build (issue 10).");
    if (!parse_or_help(p, args)) return kExitOk;
    throw UsageError{"sweep: not available yet in this build"};
}

}  // namespace tokenscope::cli
