#pragma once

// A joined run (docs/engine-traces.md, Client and server together) built by hand for the
// slowest-token views: engine iterations with batch compositions and kernels, and four requests
// whose tokens are emitted 1 ms (+ 0.1 ms per request) after each iteration ends. One iteration is
// planted slow, so every number below can be worked out by hand.
#include <cstdint>

#include "trace/run_data.h"

namespace tokenscope::test {

struct JoinedHandRun {
    static constexpr int kIterations = 10;
    static constexpr int kFirstNumber = 4702;  // iteration numbers 4702..4711
    static constexpr int kSlow = 5;            // iteration 4707: 60 ms, the rest 10 ms
    static constexpr int kSlowNumber = kFirstNumber + kSlow;
    static constexpr int kRequests = 4;  // ids 1..4, token k after iteration k
    static constexpr std::int64_t kMs = 1'000'000;
    static constexpr std::int64_t kSlowNs = 60 * kMs;
    static constexpr std::int64_t kNormalNs = 10 * kMs;
    // In the slow iteration flash_fwd runs 36 ms (60%) and rms_norm 6 ms (10%);
    // in the others flash_fwd 4 ms and rms_norm 2 ms.
    static constexpr const char* kFlash =
        "void flash_fwd_kernel<Flash_fwd_params>(Flash_fwd_params)";
    static constexpr const char* kNorm = "rms_norm_kernel";

    static std::int64_t start_of(int k) {
        return k <= kSlow ? k * kNormalNs : k * kNormalNs + (kSlowNs - kNormalNs);
    }
    static std::int64_t end_of(int k) { return start_of(k) + (k == kSlow ? kSlowNs : kNormalNs); }
    static std::int64_t emission(int request, int k) {
        return end_of(k) + kMs + request * kMs / 10;
    }
    // Index in run.steps of token k of request r (iterations come first).
    static std::size_t token_step(int request, int k) {
        return static_cast<std::size_t>(kIterations + (request - 1) * kIterations + k);
    }
};

inline trace::RunData joined_hand_run() {
    using H = JoinedHandRun;
    trace::RunData run;
    run.info.name = "joined hand run";
    run.info.source = trace::Source::Kineto;
    run.info.complete = true;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 10, 11, "engine thread"},
                 {trace::LaneKind::GpuStream, 0, 10, 7, "stream 7"}};
    const std::uint32_t flash = run.strings.intern(H::kFlash);
    const std::uint32_t norm = run.strings.intern(H::kNorm);
    auto kernel = [&](std::uint32_t name, std::int64_t s, std::int64_t e) {
        trace::Activity a;
        a.lane = 1, a.kind = trace::ActivityKind::Kernel, a.start_ns = s, a.end_ns = e;
        a.name = name;
        run.activities.push_back(a);
    };
    for (int k = 0; k < H::kIterations; ++k) {
        const bool slow = k == H::kSlow;
        trace::Step it;
        it.index = H::kFirstNumber + k;
        it.start_ns = H::start_of(k);
        it.end_ns = H::end_of(k);
        it.phase = slow ? trace::Phase::Prefill : trace::Phase::Iteration;
        it.batch =
            slow ? trace::BatchComposition{6, 8192, 4, 4} : trace::BatchComposition{0, 0, 4, 4};
        run.steps.push_back(it);
        const std::int64_t t = it.start_ns;
        if (slow) {
            kernel(flash, t, t + 36 * H::kMs);
            kernel(norm, t + 36 * H::kMs, t + 42 * H::kMs);
        } else {
            kernel(flash, t + H::kMs, t + 5 * H::kMs);
            kernel(norm, t + 5 * H::kMs, t + 7 * H::kMs);
        }
    }
    for (int r = 1; r <= H::kRequests; ++r) {
        std::int64_t previous = 0;  // arrival
        for (int k = 0; k < H::kIterations; ++k) {
            trace::Step s;
            s.request = r, s.index = k;
            s.phase = k == 0 ? trace::Phase::Prefill : trace::Phase::Decode;
            s.start_ns = previous;
            s.end_ns = previous = H::emission(r, k);
            run.steps.push_back(s);
        }
        run.requests.push_back({r, 0, H::emission(r, 0), H::emission(r, H::kIterations - 1), 128,
                                H::kIterations, false});
    }
    return run;
}

}  // namespace tokenscope::test
