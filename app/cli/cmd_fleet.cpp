#include "arg_parser.h"
#include "commands.h"

namespace tokenscope::cli {

// Placeholder while the Prometheus client (issue 11) is being built.
int cmd_fleet(const std::vector<std::string>& /*args*/) {
    throw UsageError{"fleet: not built yet (issue 11)"};
}

}  // namespace tokenscope::cli
