#pragma once
// Runs the built tokenscope-cli as a user does: a shell command line, its exit
// status, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tokenscope::fleet_test {

struct CliResult {
    int status = -1;
    std::string out, err;
    double seconds = 0;
};

inline CliResult run_cli(const std::string& args) {
    CliResult r;
    const std::string err_file = (std::filesystem::temp_directory_path() /
                                  ("tokenscope_fleet_err_" + std::to_string(getpid())))
                                     .string();
    const std::string command = std::string(TOKENSCOPE_CLI) + " fleet " + args + " 2>" + err_file;
    const auto start = std::chrono::steady_clock::now();
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 65536> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int raw = pclose(pipe);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(err_file);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    std::filesystem::remove(err_file);
    return r;
}

// One line on stderr (DESIGN.md section 11): the message and exactly one newline.
inline bool one_line(const std::string& err) {
    return !err.empty() && err.find('\n') == err.size() - 1;
}

}  // namespace tokenscope::fleet_test
