#pragma once

#include <string>
#include <vector>

namespace tokenscope::cli {

struct ManCommand {
    std::string name;
    std::string summary;
    int (*fn)(const std::vector<std::string>&);
};

// tokenscope-cli(1) in roff: the overview and top-level options, then every
// command's own --help in man form (each command is run with --help while
// ArgParser writes man sections), so a new command in the table is in the page.
// Written on std::cout, where the commands print their help.
void print_man_page(const std::vector<ManCommand>& commands);

// The top-level options, shared by --help and the man page.
struct TopOption {
    const char* name;
    const char* help;
};
inline constexpr TopOption kTopOptions[] = {
    {"--help", "list the commands and exit"},
    {"--version", "print the version and exit"},
};

}  // namespace tokenscope::cli
