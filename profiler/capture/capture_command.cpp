#include "capture_command.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"

extern char** environ;

namespace tokenscope::capture {
namespace {

namespace fs = std::filesystem;

std::string env_or_empty(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

std::string joined(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}

// The run ids a store file holds now; empty for a file that does not exist yet.
// Throws StoreError for a file that is not a .tokenscope store.
std::set<std::int64_t> run_ids(const std::string& path) {
    std::set<std::int64_t> ids;
    if (!fs::exists(path)) return ids;
    store::StoreReader reader(path);
    for (const auto& r : reader.runs()) ids.insert(r.info.id);
    return ids;
}

// The SIGTERM a GUI sends to cancel must reach the traced program too, or it
// would run on unobserved after its tracer went away.
volatile sig_atomic_t g_child = 0;
extern "C" void forward_signal(int sig) {
    if (g_child > 0) kill(g_child, sig);
}

struct ChildEnv {
    std::vector<std::string> storage;
    std::vector<char*> pointers;
};

ChildEnv child_environment(const std::vector<std::pair<std::string, std::string>>& set) {
    ChildEnv env;
    for (char** e = environ; e && *e; ++e) {
        std::string entry = *e;
        bool replaced = false;
        for (const auto& [k, v] : set) replaced |= entry.rfind(k + "=", 0) == 0;
        if (!replaced) env.storage.push_back(std::move(entry));
    }
    for (const auto& [k, v] : set) env.storage.push_back(k + "=" + v);
    for (auto& s : env.storage) env.pointers.push_back(s.data());
    env.pointers.push_back(nullptr);
    return env;
}

// Forks and execs; returns the exit status (128 + N for signal N), or -errno
// when the command could not be started. Everything the child touches is built
// before fork, as only async-signal-safe calls are allowed there.
int run_child(const std::vector<std::string>& argv, ChildEnv& env) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return -errno;
    const pid_t pid = fork();
    if (pid < 0) return -errno;
    if (pid == 0) {
        close(fds[0]);
        execvpe(args[0], args.data(), env.pointers.data());
        const int err = errno;
        [[maybe_unused]] ssize_t w = write(fds[1], &err, sizeof err);
        _exit(127);
    }
    close(fds[1]);
    g_child = pid;
    // Like system(): Ctrl-C goes to the whole process group; the program decides.
    struct sigaction ignore {
    }, forward{}, old_int{}, old_quit{}, old_term{};
    ignore.sa_handler = SIG_IGN;
    forward.sa_handler = forward_signal;
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    sigaction(SIGTERM, &forward, &old_term);
    int exec_errno = 0;
    ssize_t got;
    do got = read(fds[0], &exec_errno, sizeof exec_errno);
    while (got < 0 && errno == EINTR);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_child = 0;
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGQUIT, &old_quit, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (got == static_cast<ssize_t>(sizeof exec_errno)) return -exec_errno;
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

void remove_store(const std::string& path) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix, ec);
}

// What the traced program left in the file, said in one line per new run.
void report_runs(const std::string& out, const std::set<std::int64_t>& before, bool existed,
                 std::ostream& log) {
    std::vector<store::RunSummary> fresh;
    if (fs::exists(out)) {
        store::StoreReader reader(out);
        for (auto& r : reader.runs())
            if (!before.count(r.info.id)) fresh.push_back(std::move(r));
    }
    if (fresh.empty()) {
        log << "capture: the command made no CUDA calls; no run written\n";
        if (!existed) remove_store(out);
        return;
    }
    for (const auto& r : fresh) {
        if (!r.info.complete) {
            log << "capture: run " << r.info.id << " in " << out
                << " is incomplete: the program ended before the trace was flushed\n";
            continue;
        }
        log << "capture: wrote run " << r.info.id << " to " << out << ": " << r.activity_count
            << " activities, " << r.step_count << " steps\n";
    }
}

}  // namespace

std::string find_inject_library(std::vector<std::string>* searched) {
    std::vector<fs::path> candidates;
    if (auto env = env_or_empty("TOKENSCOPE_INJECT_LIB"); !env.empty()) candidates.push_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path dir = exe.parent_path();
        candidates.push_back(dir / kInjectLibraryName);
        candidates.push_back(dir / "../lib" / kInjectLibraryName);
        candidates.push_back(dir / "../lib/tokenscope" / kInjectLibraryName);
        // Build tree: app/cli/tokenscope-cli and tests/<module>/<test> both sit two
        // levels below the build root.
        candidates.push_back(dir / "../../profiler/capture/inject" / kInjectLibraryName);
    }
    for (const auto& c : candidates) {
        if (searched) searched->push_back(c.lexically_normal().string());
        if (is_file(c)) return fs::absolute(c).lexically_normal().string();
    }
    return {};
}

std::string find_cupti_library() {
    if (auto env = env_or_empty("TOKENSCOPE_CUPTI_LIB"); !env.empty()) return env;
    std::vector<fs::path> roots;
    if (auto home = env_or_empty("CUDA_HOME"); !home.empty()) roots.push_back(home);
    roots.push_back("/usr/local/cuda");
    for (const auto& root : roots)
        for (const char* sub : {"lib64", "extras/CUPTI/lib64", "targets/x86_64-linux/lib"})
            for (const char* name : {"libcupti.so", "libcupti.so.13", "libcupti.so.12"})
                if (is_file(root / sub / name)) return (root / sub / name).string();
    return {};
}

std::string pm_sampling_problem(bool driver_ok) {
    if (!driver_ok) return "CUPTI PM sampling unavailable: no NVIDIA driver found";
    // The driver publishes its module parameters; RmProfilingAdminOnly is
    // NVreg_RestrictProfilingToAdminUsers.
    std::ifstream params("/proc/driver/nvidia/params");
    std::string line;
    bool restricted = false;
    while (std::getline(params, line))
        if (line.rfind("RmProfilingAdminOnly:", 0) == 0)
            restricted = line.find('1', line.find(':')) != std::string::npos;
    if (restricted && geteuid() != 0)
        return "profiling counters need privileges (NVreg_RestrictProfilingToAdminUsers=0 or root)";
    return {};
}

std::string command_json(const std::vector<std::string>& argv) {
    std::error_code ec;
    const fs::path cwd = fs::current_path(ec);
    nlohmann::json j = {{"command", argv}, {"cwd", ec ? std::string() : cwd.string()}};
    return j.dump();
}

namespace {

// Checks before anything runs; returns an exit status, or -1 to go on with
// *inject set to the injection library.
int preflight(const CaptureCommandOptions& o, std::ostream& log, std::string* inject) {
    if (o.argv.empty() || o.argv[0].empty()) {
        log << "capture: no command given (tokenscope-cli capture --out FILE -- COMMAND ...)\n";
        return kCaptureBadInput;
    }
    if (o.out.empty()) {
        log << "capture: --out FILE is required\n";
        return kCaptureBadInput;
    }
    const DriverStatus driver = o.probe ? o.probe() : DriverProbe().probe();
    if (o.pm_sampling)
        if (auto why = pm_sampling_problem(driver.ok); !why.empty())
            log << "capture: --pm-sampling: " << why << '\n';
    if (!driver.ok) {
        log << "capture: " << driver.reason << '\n';
        return kCaptureNoDriver;
    }
    std::vector<std::string> searched;
    *inject = o.inject_library.empty() ? find_inject_library(&searched) : o.inject_library;
    if (inject->empty() || !is_file(*inject)) {
        std::string where;
        for (const auto& s : searched) where += (where.empty() ? "" : ", ") + s;
        log << "capture: " << kInjectLibraryName << " not found (this build has no CUDA "
            << "support, or set TOKENSCOPE_INJECT_LIB); looked in: " << where << '\n';
        return kCaptureInternal;
    }
    return -1;
}

ChildEnv injection_environment(const CaptureCommandOptions& o, const std::string& inject,
                               const std::string& out, std::ostream& log) {
    const std::string cupti = o.cupti_library.empty() ? find_cupti_library() : o.cupti_library;
    std::vector<std::pair<std::string, std::string>> vars = {
        {"CUDA_INJECTION64_PATH", inject},
        {"TOKENSCOPE_CAPTURE_OUT", out},
        {"TOKENSCOPE_STEPS_REGEX", o.steps_regex},
        {"TOKENSCOPE_COMMAND_JSON", command_json(o.argv)},
        {"TOKENSCOPE_PM_SAMPLING", o.pm_sampling ? "1" : "0"}};
    if (!cupti.empty())
        vars.emplace_back("NVTX_INJECTION64_PATH", cupti);
    else
        log << "capture: libcupti not found; NVTX ranges will not be traced\n";
    return child_environment(vars);
}

}  // namespace

int run_capture(const CaptureCommandOptions& o) {
    std::ostream& log = o.log ? *o.log : std::cerr;
    try {
        std::string inject;
        if (int status = preflight(o, log, &inject); status >= 0) return status;
        const std::string out = fs::absolute(o.out).lexically_normal().string();
        const bool existed = fs::exists(out);
        const auto before = run_ids(out);
        { store::StoreWriter create(out); }  // an unwritable path fails here, not in the program
        ChildEnv env = injection_environment(o, inject, out, log);

        log << "capture: tracing '" << joined(o.argv) << "' into " << out << '\n';
        const int status = run_child(o.argv, env);
        if (status < 0) {
            log << "capture: cannot run '" << o.argv[0] << "': " << std::strerror(-status) << '\n';
            if (!existed) remove_store(out);
            return kCaptureBadInput;
        }
        log << "capture: the command exited with status " << status << '\n';
        try {
            report_runs(out, before, existed, log);
        } catch (const std::exception& e) {
            log << "capture: cannot read the run back: " << e.what() << '\n';
        }
        return status;
    } catch (const store::StoreError& e) {
        log << "capture: " << e.what() << '\n';
        return kCaptureBadInput;
    } catch (const std::exception& e) {
        log << "capture: internal error: " << e.what() << '\n';
        return kCaptureInternal;
    }
}

}  // namespace tokenscope::capture
