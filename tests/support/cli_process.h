#pragma once
// Runs the built tokenscope-cli as a user does: a shell command line, its exit
// status, stdout, stderr and how long it took. The one runner of every test folder.
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tokenscope::test {

struct CliResult {
    int status = -1;  // exit status; -1 when killed by a signal or not started
    std::string out, err;
    double seconds = 0;  // wall time from start to exit
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
    const auto start = std::chrono::steady_clock::now();
    FILE* pipe = popen((command + " 2>" + err_file).c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buf;
    std::size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
    const int raw = pclose(pipe);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(err_file);
    std::stringstream ss;
    ss << in.rdbuf();
    r.err = ss.str();
    std::error_code ec;
    std::filesystem::remove(err_file, ec);
    return r;
}

// `tokenscope-cli ARGS`, after `env` (e.g. "COLUMNS=80") when given. TOKENSCOPE_CLI is
// the binary's path, defined by the test's CMakeLists.
inline CliResult run_cli(const std::string& args, const std::string& env = {}) {
    return run_shell((env.empty() ? std::string() : env + " ") + TOKENSCOPE_CLI + " " + args);
}

// One line on stderr (docs/cli.md, Exit status): the message and exactly one newline.
inline bool one_line(const std::string& err) {
    return !err.empty() && err.find('\n') == err.size() - 1;
}

}  // namespace tokenscope::test
