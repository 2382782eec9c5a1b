#pragma once
// What the bench programs measure with: wall time since a point, the median of a
// few repetitions, the resident memory of this process.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace tokenscope::bench {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// The upper median of a non-empty sample.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// CPU time of this thread: on a shared machine the wall time mostly measures the
// other processes.
inline double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The upper median of `repeats` runs of `fn`, in this thread's CPU seconds.
inline double median_cpu_seconds(int repeats, const std::function<void()>& fn) {
    std::vector<double> t;
    for (int i = 0; i < repeats; ++i) {
        const double start = thread_cpu_seconds();
        fn();
        t.push_back(thread_cpu_seconds() - start);
    }
    return median(std::move(t));
}

// VmRSS of /proc/self/status in KiB (0 where it cannot be read).
inline long rss_kib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
    return 0;
}

}  // namespace tokenscope::bench
