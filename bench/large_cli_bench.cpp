// Issue 24: the CLI on a large run. Runs tokenscope-cli's reading commands on FILE as a
// user does (a process each, output to /dev/null) and prints per command the median wall
// time and the largest peak resident memory of N runs, and the file's size.
//
//   large_cli_bench FILE [--repeat N] [--commands "info --json;stats --json;..."]
//
// Make FILE with bench/make_large_run; run the first round twice or drop the page cache
// for cold figures (the first round is printed apart, as "first").
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Sample {
    double seconds = 0;
    long max_rss_kib = 0;
    int status = -1;
};

// One `tokenscope-cli ARGS... FILE` with stdout and stderr to /dev/null.
Sample run_once(const std::vector<std::string>& args, const std::string& file) {
    std::vector<std::string> argv_text = {TOKENSCOPE_BENCH_CLI};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    argv_text.push_back(file);
    argv_text.push_back("--progress");
    argv_text.push_back("none");
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);  // else the child's copy of the buffer is written again
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        std::freopen("/dev/null", "w", stdout);
        std::freopen("/dev/null", "w", stderr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    Sample s;
    int raw = 0;
    rusage usage{};
    if (pid < 0 || wait4(pid, &raw, 0, &usage) != pid) return s;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    s.max_rss_kib = usage.ru_maxrss;
    s.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return s;
}

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, sep))
        if (!part.empty()) out.push_back(part);
    return out;
}

int usage() {
    std::fprintf(stderr,
                 "usage: large_cli_bench FILE [--repeat N] [--commands \"info --json;...\"]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string file = argv[1];
    int repeat = 3;
    std::string commands = "info --json;stats --json;heatmap --json;breakdown --json";
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string opt = argv[i];
        if (opt == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (opt == "--commands")
            commands = argv[i + 1];
        else
            return usage();
    }
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(file, ec);
    if (ec) {
        std::fprintf(stderr, "large_cli_bench: %s: %s\n", file.c_str(), ec.message().c_str());
        return 1;
    }
    std::printf("file %s: %.1f MB; %d runs each, medians\n", file.c_str(), double(bytes) / 1e6,
                repeat);
    std::printf("%-34s %10s %10s %12s %7s\n", "command", "first s", "median s", "peak RSS MiB",
                "status");
    int failed = 0;
    for (const auto& command : split(commands, ';')) {
        const auto args = split(command, ' ');
        std::vector<Sample> samples;
        for (int r = 0; r < repeat; ++r) samples.push_back(run_once(args, file));
        std::vector<double> times;
        long rss = 0;
        int status = 0;
        for (const auto& s : samples) {
            times.push_back(s.seconds);
            rss = std::max(rss, s.max_rss_kib);
            if (s.status != 0) status = s.status;
        }
        const double first = times.front();
        std::sort(times.begin(), times.end());
        std::printf("%-34s %10.3f %10.3f %12.1f %7d\n", command.c_str(), first,
                    times[times.size() / 2], double(rss) / 1024.0, status);
        if (status != 0) ++failed;
    }
    return failed == 0 ? 0 : 1;
}
