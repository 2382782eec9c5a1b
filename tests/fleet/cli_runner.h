#pragma once
// `tokenscope-cli fleet ARGS` through the tests' one CLI runner (tests/support).
#include <string>

#include "cli_process.h"

namespace tokenscope::fleet_test {

using test::CliResult;
using test::one_line;

inline CliResult run_cli(const std::string& args) {
    return test::run_cli("fleet " + args);
}

}  // namespace tokenscope::fleet_test
