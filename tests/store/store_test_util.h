#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/temp_dir.h"
#include "trace/activity_order.h"
#include "trace/run_data.h"

namespace tokenscope::store::test {

using tokenscope::test::TempDir;

// By value (make_tuple, not tie): a tuple of references to Activity members is
// fragile against the struct's layout changes.
inline auto activity_key(const trace::Activity& a) {
    return std::make_tuple(a.lane, a.start_ns, a.end_ns, a.name, a.correlation, a.bytes, a.flops,
                           a.kind, a.copy);
}

// What load_run must return: the input stably sorted by (lane, start).
inline std::vector<trace::Activity> sorted_by_lane_start(std::vector<trace::Activity> v) {
    std::stable_sort(v.begin(), v.end(), trace::lane_start_order);
    return v;
}

// A small but varied run: every field of every type set to a non-default value.
inline trace::RunData sample_run(const std::string& name, std::uint32_t seed) {
    trace::RunData run;
    run.info.name = name;
    run.info.source = trace::Source::Cuda;
    run.info.created_ns = 1'700'000'000'123'456'789LL;
    run.info.host = "gpu-node-07";
    run.info.gpu = {"NVIDIA H100 80GB HBM3", 132, 3.35e12, 989.4e12, 5, 16, 18, 450e9};
    run.info.driver_version = "550.54.15";
    run.info.cuda_version = "12.4";
    run.info.workload_json = R"({"model":"llama-7b","batch":8})";
    run.info.clock = trace::ClockDomain::Cupti;
    run.info.origin_utc_ns = 1'700'000'000'000'000'123LL;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 4242, 4243, "python main", 3},
                 {trace::LaneKind::GpuStream, 0, 4242, 7, "stream 7", 3},
                 {trace::LaneKind::CopyEngine, 1, 4242, 2, "copy engine 2", 0},
                 {trace::LaneKind::Counter, 0, 0, 11, "PCIe RX bytes/s", -1},
                 {trace::LaneKind::StepTrack, -1, 4242, 1, "steps", 3}};
    std::uint32_t gemm = run.strings.intern("ampere_sgemm_128x64");
    std::uint32_t launch = run.strings.intern("cudaLaunchKernel");
    std::uint32_t copy = run.strings.intern("memcpy HtoD");
    std::mt19937_64 rng(seed);
    std::int64_t t = 1'000'000;
    for (int i = 0; i < 10'000; ++i) {
        t += static_cast<std::int64_t>(rng() % 5000);
        auto c = static_cast<std::uint32_t>(i + 1);
        run.activities.push_back(
            {t, t + 2000, 0, 0, launch, c, 0, trace::ActivityKind::Api, trace::CopyKind::None});
        run.activities.push_back({t + 3000, t + 3000 + static_cast<std::int64_t>(rng() % 90000),
                                  rng() % (1ULL << 34), static_cast<float>(rng()), gemm, c, 1,
                                  trace::ActivityKind::Kernel, trace::CopyKind::None});
        if (i % 50 == 0)
            run.activities.push_back({t + 100, t + 9000, 1ULL << 40, 0, copy, c + 1'000'000, 2,
                                      trace::ActivityKind::Memcpy, trace::CopyKind::H2D});
    }
    run.steps = {{1, 0, trace::Phase::Prefill, 1000, 5000, 800},
                 {1, 1, trace::Phase::Decode, 5000, 6000, 700},
                 {2, 0, trace::Phase::Prefill, 1500, 7000, 0},
                 {0, 3, trace::Phase::Iteration, 9000, 19000, 5}};
    run.requests = {{1, 900, 5000, 6000, 512, 2, false}, {2, 1400, 7000, 7000, 128, 1, true}};
    run.counters = {{3, 1000, 1.5e9}, {3, 11000, 2.25e9}, {3, 21000, -0.5}};
    run.diagnostics = {{"cupti_dropped_records", trace::Severity::DataLoss, 17, "buffer full"},
                       {"clock_fit_residual", trace::Severity::Info, 3.25, "ns"}};
    return run;
}

}  // namespace tokenscope::store::test
