#pragma once
// The benchmark run of the GUI benches (ui_timeline_bench, ui_open_bench), in one place
// so both measure the same 10,000,000-activity run.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "store/store_writer.h"
#include "trace/run_data.h"

namespace tokenscope::bench {

// A decode-shaped run: per step the host thread launches ~60 kernels (an API call
// each, 4-6 us apart) onto two streams (kernels 20-120 us), a small H2D copy per
// step on the copy engine; steps of ~6 ms back to back. Every kernel has its launch
// facts, drawn from 8 configurations as a decode's few kernels have. Activities come
// out in (lane, start) order, as the store returns them.
inline trace::RunData decode_run(std::size_t activities) {
    trace::RunData run;
    run.info.name = "ui bench";
    run.info.source = trace::Source::Model;
    run.info.gpu.peak_bandwidth = 3.35e12;
    run.info.gpu.peak_flops = 989e12;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 1, "main thread"},
                 {trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"},
                 {trace::LaneKind::GpuStream, 0, 1, 8, "stream 8"},
                 {trace::LaneKind::CopyEngine, 0, 1, 0, "copy engine 0"}};
    std::vector<std::uint32_t> names;
    for (const char* n : {"gemm_bf16_128x128", "flash_attn_decode", "rmsnorm", "rope", "silu_mul",
                          "allreduce", "embedding", "softmax"})
        names.push_back(run.strings.intern(n));
    // One configuration per kernel name: grid, block, shared bytes, registers.
    const std::vector<trace::KernelLaunch> configs = {
        {0, {132, 1, 1}, {256, 1, 1}, 49152, 128}, {0, {32, 8, 1}, {128, 1, 1}, 16384, 96},
        {0, {8, 1, 1}, {1024, 1, 1}, 0, 32},       {0, {64, 1, 1}, {128, 1, 1}, 0, 24},
        {0, {448, 1, 1}, {256, 1, 1}, 0, 40},      {0, {16, 1, 1}, {512, 1, 1}, 8192, 64},
        {0, {1, 1, 1}, {256, 1, 1}, 0, 16},        {0, {8, 32, 1}, {128, 1, 1}, 1024, 48}};
    const std::uint32_t launch = run.strings.intern("cudaLaunchKernel");
    const std::uint32_t copy = run.strings.intern("memcpy HtoD");
    constexpr int kPerStep = 60;
    // Per step: kPerStep API calls + kPerStep kernels + 1 copy.
    const std::size_t steps = activities / (2 * kPerStep + 1);
    std::vector<std::vector<trace::Activity>> lanes(4);
    for (auto& l : lanes) l.reserve(steps * kPerStep);
    run.launches.reserve(steps * kPerStep);
    std::uint32_t corr = 1;
    std::int64_t t = 0;
    std::uint64_t seed = 42;
    auto rnd = [&](int lo, int hi) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        return lo + static_cast<int>((seed >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
    };
    for (std::size_t s = 0; s < steps; ++s) {
        const std::int64_t step_start = t;
        std::int64_t gpu = t + 8000;
        for (int k = 0; k < kPerStep; ++k, ++corr) {
            trace::Activity api;
            api.lane = 0, api.kind = trace::ActivityKind::Api, api.name = launch;
            api.start_ns = t, api.end_ns = t + rnd(2000, 4000), api.correlation = corr;
            lanes[0].push_back(api);
            t += rnd(4000, 6000);
            trace::Activity kern;
            kern.lane = static_cast<std::uint16_t>(1 + (k % 7 == 6));
            kern.kind = trace::ActivityKind::Kernel, kern.name = names[k % names.size()];
            kern.start_ns = std::max(gpu, api.start_ns + 5000);
            kern.end_ns = kern.start_ns + rnd(20000, 120000) / 4, kern.correlation = corr;
            gpu = kern.end_ns + 1500;
            lanes[kern.lane].push_back(kern);
            trace::KernelLaunch facts = configs[k % configs.size()];
            facts.correlation = corr;
            run.launches.add(facts);
        }
        trace::Activity c;
        c.lane = 3, c.kind = trace::ActivityKind::Memcpy, c.copy = trace::CopyKind::H2D;
        c.name = copy, c.start_ns = step_start + 1000, c.end_ns = step_start + 4000, c.bytes = 4096;
        lanes[3].push_back(c);
        t = std::max(t, gpu) + rnd(50000, 150000);
        run.steps.push_back({1, static_cast<std::int32_t>(s),
                             s == 0 ? trace::Phase::Prefill : trace::Phase::Decode, step_start, t,
                             0});
    }
    run.activities.reserve(steps * (2 * kPerStep + 1));
    for (auto& l : lanes) {
        run.activities.insert(run.activities.end(), l.begin(), l.end());
        std::vector<trace::Activity>().swap(l);
    }
    run.launches.finish();
    run.requests = {
        {1, 0, run.steps.front().end_ns, t, 512, static_cast<std::int32_t>(steps), false}};
    return run;
}

// decode_run(activities) written as the only run of a fresh .tokenscope file at `path`
// (an older file there is replaced); returns the activities it holds.
inline std::size_t write_decode_run(const std::string& path, std::size_t activities) {
    std::remove(path.c_str());
    const trace::RunData run = decode_run(activities);
    store::StoreWriter(path).write_run(run);
    return run.activities.size();
}

}  // namespace tokenscope::bench
