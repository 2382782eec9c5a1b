// The client/server join at issue 12's size: 20,000 requests x 256 tokens (5.12 M token
// emissions, an epoch clock) joined to a 10,000,000-activity engine trace (a boot
// clock, ~40,000 iterations) on one core. Each measurement runs in a forked child so
// its resident memory is its own: the client alone, the server alone, then the two
// and their join (the CLI's way: inputs moved in), five times. Prints medians, the
// fitted offset against the planted one and the peak memory ratio.
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "analysis/join/client_server_join.h"

using namespace tokenscope;

namespace {

constexpr int kRequests = 20'000, kTokens = 256, kSlots = 128;
constexpr std::size_t kActivities = 10'000'000;
constexpr std::int64_t kServerStart = 3'700 * 1'000'000'000LL;      // boot clock
constexpr std::int64_t kClientStart = 1'767'225'600'000'000'000LL;  // 2026-01-01 UTC
constexpr std::int64_t kOffset = kServerStart - kClientStart;       // server = client + this

// Iteration ends: decode steps of 9-14 ms, a prefill every 64 iterations.
std::vector<std::int64_t> iteration_ends() {
    const int per_slot = (kRequests + kSlots - 1) / kSlots;
    const int iterations = per_slot * kTokens + kSlots;
    std::mt19937 rng(11);
    std::uniform_int_distribution<std::int64_t> gap(9'000'000, 14'000'000);
    std::vector<std::int64_t> ends(static_cast<std::size_t>(iterations));
    std::int64_t t = kServerStart;
    for (int k = 0; k < iterations; ++k) ends[k] = t += k % 64 == 0 ? 35'000'000 : gap(rng);
    return ends;
}

trace::RunData server_run(const std::vector<std::int64_t>& ends) {
    trace::RunData run;
    run.info.name = "server";
    run.info.source = trace::Source::Kineto;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 1, "python"},
                 {trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"},
                 {trace::LaneKind::GpuStream, 0, 1, 8, "stream 8"}};
    std::vector<std::uint32_t> names;
    for (int k = 0; k < 200; ++k)
        names.push_back(run.strings.intern("kernel_" + std::to_string(k)));
    const std::size_t per = kActivities / ends.size();
    run.activities.reserve(per * ends.size());
    std::uint32_t corr = 1;
    for (std::size_t i = 0; i < ends.size(); ++i) {
        const std::int64_t begin = i == 0 ? ends[0] - 10'000'000 : ends[i - 1];
        const std::int64_t slot = (ends[i] - begin) / static_cast<std::int64_t>(per);
        for (std::size_t k = 0; k < per; ++k) {
            trace::Activity a;
            a.start_ns = begin + static_cast<std::int64_t>(k) * slot;
            a.end_ns = a.start_ns + slot / 2;
            a.correlation = corr;
            a.lane = k % 2 == 0 ? 0 : static_cast<std::uint16_t>(1 + k % 4 / 2);
            a.kind = k % 2 == 0 ? trace::ActivityKind::Api : trace::ActivityKind::Kernel;
            a.name = names[k % names.size()];
            if (k % 2 == 1) ++corr;
            run.activities.push_back(a);
        }
        trace::Step s;
        s.index = static_cast<std::int32_t>(i);
        s.phase = i % 64 == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
        s.start_ns = begin;
        s.end_ns = ends[i];
        s.batch = {i % 64 == 0 ? 4 : 0, i % 64 == 0 ? 4096 : 0, kSlots, kSlots};
        run.steps.push_back(s);
    }
    return run;
}

// Requests back to back in 128 slots; token k of a request is seen 0-100 us after the
// end of its slot's k-th iteration, on the client's clock. Built as the importers do.
trace::RunData client_run(const std::vector<std::int64_t>& ends) {
    trace::RunData run;
    run.info.name = "client";
    run.info.source = trace::Source::Bench;
    std::mt19937 rng(5);
    std::uniform_int_distribution<std::int64_t> hop(0, 99'999);
    for (int r = 0; r < kRequests; ++r) {
        const int slot = r % kSlots, round = r / kSlots;
        const std::size_t first = static_cast<std::size_t>(slot + round * kTokens);
        trace::Request q;
        q.id = r + 1;
        q.arrival_ns = ends[first] - 20'000'000 - kOffset;
        std::int64_t prev = q.arrival_ns;
        for (int k = 0; k < kTokens; ++k) {
            const std::int64_t seen = ends[first + k] + hop(rng) - kOffset;
            run.steps.push_back({q.id,
                                 k,
                                 k == 0 ? trace::Phase::Prefill : trace::Phase::Decode,
                                 prev,
                                 seen,
                                 0,
                                 {}});
            prev = seen;
        }
        q.first_token_ns = run.steps[run.steps.size() - kTokens].end_ns;
        q.done_ns = prev;
        q.input_len = 1024;
        q.output_len = kTokens;
        run.requests.push_back(q);
    }
    run.steps.shrink_to_fit();  // no spare room: the join cannot build in place
    return run;
}

long status_kb(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::stol(line.substr(std::strlen(key)));
    return -1;
}

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Figures {
    double join_s = 0;
    double cpu_s = 0;  // CPU time of the join: on a busy machine the wall time waits too
    long peak_kb = 0;
    long long offset_error_ns = 0;
    double share = 0, residual_ns = 0;
};

// Runs fn in a child pinned to one core; the child writes its figures into a pipe.
Figures in_child(Figures (*fn)()) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    const pid_t pid = fork();
    if (pid == 0) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        sched_setaffinity(0, sizeof one, &one);
        Figures f = fn();
        if (write(fds[1], &f, sizeof f) != sizeof f) _exit(1);
        _exit(0);
    }
    Figures f;
    if (read(fds[0], &f, sizeof f) != sizeof f) std::fprintf(stderr, "child failed\n");
    waitpid(pid, nullptr, 0);
    close(fds[0]);
    close(fds[1]);
    return f;
}

// An input alone: resident memory once it is built (its vectors' growth is past).
Figures client_alone() {
    trace::RunData c = client_run(iteration_ends());
    return {0, 0, status_kb("VmRSS:"), 0, 0, static_cast<double>(c.steps.size())};
}

Figures server_alone() {
    trace::RunData s = server_run(iteration_ends());
    return {0, 0, status_kb("VmRSS:"), 0, 0, static_cast<double>(s.activities.size())};
}

double diagnostic(const trace::RunData& run, const char* name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return d.value;
    return -1;
}

Figures joined() {
    const auto ends = iteration_ends();
    trace::RunData c = client_run(ends), s = server_run(ends);
    // The peak from here on is the join's: building the inputs grew vectors twice over.
    std::ofstream("/proc/self/clear_refs") << "5";
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpu_seconds();
    trace::RunData j = analysis::join_client_server(std::move(c), std::move(s));
    Figures f;
    f.cpu_s = cpu_seconds() - cpu0;
    f.join_s = seconds_since(t0);
    f.peak_kb = status_kb("VmHWM:");
    f.offset_error_ns = static_cast<long long>(
        static_cast<std::int64_t>(diagnostic(j, analysis::kJoinOffsetDiagnostic)) - kOffset);
    f.share = diagnostic(j, analysis::kJoinShareDiagnostic);
    f.residual_ns = diagnostic(j, analysis::kJoinResidualDiagnostic);
    return f;
}

template <typename T>
T median(std::vector<T> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const Figures client = in_child(client_alone);
    const Figures server = in_child(server_alone);
    std::printf("client alone: %.0f token steps, peak RSS %.1f MiB\n", client.residual_ns,
                static_cast<double>(client.peak_kb) / 1024.0);
    std::printf("server alone: %.0f activities, peak RSS %.1f MiB\n", server.residual_ns,
                static_cast<double>(server.peak_kb) / 1024.0);
    std::vector<double> times, cpu;
    std::vector<long> peaks;
    Figures last;
    for (int r = 0; r < reps; ++r) {
        last = in_child(joined);
        times.push_back(last.join_s);
        cpu.push_back(last.cpu_s);
        peaks.push_back(last.peak_kb);
        std::printf(
            "join %d: %.3f s wall, %.3f s CPU, peak RSS %.1f MiB, offset error %lld ns, "
            "share %.5f, residual %.1f us\n",
            r + 1, last.join_s, last.cpu_s, static_cast<double>(last.peak_kb) / 1024.0,
            last.offset_error_ns, last.share, last.residual_ns / 1e3);
    }
    const double inputs = static_cast<double>(client.peak_kb + server.peak_kb);
    const double ratio = static_cast<double>(median(peaks)) / inputs;
    std::printf(
        "median join %.3f s wall, %.3f s CPU (target <= 2 s on one core); median peak RSS "
        "%.1f MiB = %.2fx the inputs opened apart (%.1f MiB; target <= 1.5x)\n",
        median(times), median(cpu), static_cast<double>(median(peaks)) / 1024.0, ratio,
        inputs / 1024.0);
    return median(cpu) <= 2.0 && ratio <= 1.5 ? 0 : 1;
}
