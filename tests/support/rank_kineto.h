#pragma once
// Per-rank Kineto traces of a two-rank tensor-parallel step loop with a known clock
// skew, written by tests of the rank merge (import/merge) and of the CLI's
// `import --merge` and `breakdown --ranks`. Every time is worked out from the
// functions below: the all-reduce ends at the same true instant on every rank;
// rank 1 reaches it 300 us late in even steps.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tokenscope::test::rank_kineto {

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000LL;  // true UTC of step 0
constexpr int kSteps = 10;
constexpr const char* kAllReduce = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgs)";

// True UTC times of rank r's events in step k. The collective ends together on every
// rank; the ranks reach it at different times (rank 1 late in even steps).
inline std::int64_t step_start(int k) {
    return kT0 + k * 10'000'000LL;
}
inline std::int64_t gemm_end(int r, int k) {
    return step_start(k) + 4'000'000 + (r == 1 && k % 2 == 0 ? 300'000 : 0);
}
inline std::int64_t nccl_end(int k) {
    // Irregular per step, as real iterations are: a perfectly periodic loop would line
    // up as well one iteration off.
    return step_start(k) + 6'000'000 + (k * k * 37'013) % 400'009;
}

inline std::string us(std::int64_t ns) {  // Kineto's microseconds with nanosecond decimals
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s%lld.%03lld", ns < 0 ? "-" : "",
                  static_cast<long long>(std::llabs(ns) / 1000),
                  static_cast<long long>(std::llabs(ns) % 1000));
    return buf;
}

inline std::string event(const char* cat, const std::string& name, int pid, int tid,
                         std::int64_t ts, std::int64_t dur, int corr) {
    std::string e = std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name +
                    R"(","pid":)" + std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) +
                    R"(,"ts":)" + us(ts) + R"(,"dur":)" + us(dur);
    if (corr > 0) e += R"(,"args":{"correlation":)" + std::to_string(corr) + "}";
    return e + "}";
}

// Rank r's trace, its times written as (true - zero_r): with a base, zero_r is the base
// time; without, zero_r is that rank's arbitrary clock zero.
inline std::string rank_file(int r, std::int64_t zero, bool write_base) {
    std::string ev;
    auto add = [&](const std::string& e) { ev += (ev.empty() ? "" : ",\n") + e; };
    const int host = 1000 + r;
    for (int k = 0; k < kSteps; ++k) {
        const std::int64_t s = step_start(k) - zero;
        add(event("user_annotation", "ProfilerStep#" + std::to_string(k), host, host, s, 9'000'000,
                  0));
        add(event("cuda_runtime", "cudaLaunchKernel", host, host, s + 10'000, 5'000, 10 * k + 1));
        add(event("kernel", "gemm", r, 7, s + 20'000, gemm_end(r, k) - zero - (s + 20'000),
                  10 * k + 1));
        add(event("cuda_runtime", "cudaLaunchKernel", host, host, s + 30'000, 5'000, 10 * k + 2));
        const std::int64_t arrive = gemm_end(r, k) - zero + 2'000;
        add(event("kernel", kAllReduce, r, 7, arrive, nccl_end(k) - zero - arrive, 10 * k + 2));
    }
    std::string doc =
        "{\"schemaVersion\": 1, \"distributedInfo\": {\"backend\": \"nccl\", "
        "\"rank\": " +
        std::to_string(r) + ", \"world_size\": 2}, \"traceEvents\": [" + ev + "]";
    if (write_base) doc += ", \"baseTimeNanoseconds\": " + std::to_string(zero);
    return doc + "}";
}

}  // namespace tokenscope::test::rank_kineto
