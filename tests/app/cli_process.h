#pragma once
// Runs the built tokenscope-cli as a user does, for the tests in this folder:
// a shell command line, its exit status, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tokenscope::test {

struct CliResult {
    int status = -1;  // exit status; -1 when killed by a signal or not started
    std::string out, err;
};

// stderr goes to a file of its own outside any test directory (which may be
// read-only or a full disk), removed afterwards.
inline CliResult run_shell(const std::string& command) {
    static std::atomic<int> serial{0};
    CliResult r;
    const std::string err_file =
        (std::filesystem::temp_directory_path() /
         ("tokenscope_cli_err_" + std::to_string(getpid()) + "_" + std::to_string(serial++)))
            .string();
    FILE* pipe = popen((command + " 2>" + err_file).c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int raw = pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(err_file);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    std::error_code ec;
    std::filesystem::remove(err_file, ec);
    return r;
}

// `tokenscope-cli ARGS`, after `env` (e.g. "COLUMNS=80") when given.
inline CliResult run_cli(const std::string& args, const std::string& env = {}) {
    return run_shell((env.empty() ? std::string() : env + " ") + TOKENSCOPE_CLI + " " + args);
}

}  // namespace tokenscope::test
