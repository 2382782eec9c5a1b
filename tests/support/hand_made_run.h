#pragma once
// A small run built by hand, with every number chosen so tests can work out
// positions, links and attribution without running the program.
#include <string>

#include "trace/run_data.h"

namespace tokenscope::test {

// Lanes: 0 CPU thread, 1 GPU stream, 2 copy engine, 3 counter.
// Activities (ns): range "decode step" [0, 25000) and API calls inside it
// (cudaLaunchKernel [1000, 1500) corr 1, cudaMemcpyAsync [13000, 13400) corr 2),
// kernel "gemm_bf16" [2000, 12000) corr 1, H2D copy [14000, 20000) corr 2 of 1 MiB.
inline trace::RunData hand_run(const std::string& name = "hand run",
                               trace::Source source = trace::Source::Cuda) {
    using trace::ActivityKind;
    trace::RunData run;
    run.info.name = name;
    run.info.source = source;
    run.info.complete = true;
    run.info.gpu.name = "NVIDIA H100 80GB HBM3";
    run.info.gpu.peak_bandwidth = 3.35e12;
    run.info.gpu.peak_flops = 989e12;
    run.lanes = {
        {trace::LaneKind::CpuThread, -1, 100, 101, "main thread"},
        {trace::LaneKind::GpuStream, 0, 100, 7, "stream 7"},
        {trace::LaneKind::CopyEngine, 0, 100, 0, "copy engine 0"},
        {trace::LaneKind::Counter, 0, 100, 1, "PCIe RX bytes/s"},
    };
    auto add = [&](std::uint16_t lane, ActivityKind kind, const char* label, std::int64_t s,
                   std::int64_t e, std::uint32_t corr) -> trace::Activity& {
        trace::Activity a;
        a.lane = lane, a.kind = kind, a.start_ns = s, a.end_ns = e, a.correlation = corr;
        a.name = run.strings.intern(label);
        run.activities.push_back(a);
        return run.activities.back();
    };
    add(0, ActivityKind::Range, "decode step", 0, 25000, 0);
    add(0, ActivityKind::Api, "cudaLaunchKernel", 1000, 1500, 1);
    add(0, ActivityKind::Api, "cudaMemcpyAsync", 13000, 13400, 2);
    // FLOPs/bytes = 1000, far above the ridge point (~295): compute-bound.
    auto& k = add(1, ActivityKind::Kernel, "gemm_bf16", 2000, 12000, 1);
    k.flops = 1e9f, k.bytes = 1'000'000;  // device 0: its lane's
    auto& c = add(2, ActivityKind::Memcpy, "memcpy HtoD", 14000, 20000, 2);
    c.copy = trace::CopyKind::H2D, c.bytes = 1 << 20;
    run.steps = {{1, 0, trace::Phase::Prefill, 0, 25000, 0},
                 {1, 1, trace::Phase::Decode, 25000, 50000, 0}};
    run.requests = {{1, 0, 25000, 50000, 16, 2, false}};
    for (int i = 0; i <= 10; ++i) run.counters.push_back({3, i * 5000, 1e9 * (i % 3)});
    return run;
}

}  // namespace tokenscope::test
