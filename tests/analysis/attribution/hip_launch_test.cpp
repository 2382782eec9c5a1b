// AMD traces name their launch and synchronisation calls hipLaunchKernel,
// hipGraphLaunch, hipModuleLaunchKernel, hipExtModuleLaunchKernel, hipStreamSynchronize
// (Kineto category cuda_runtime, as in fixtures/engines/). DESIGN.md section 14: they
// are launches as their CUDA twins are. No rule of the profiler reads a launch call's
// name (calls are tied to the GPU work they started by correlation id, and are calls
// by their category; only "Synchronize" in a name makes a sync), so the same trace
// with each CUDA name swapped for its HIP twin must give the same run: the call's
// kind, the kernels it launched, the launch delay and the step's attribution.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "analysis/attribution/launch_delay.h"
#include "analysis/attribution/run_analysis.h"
#include "import/kineto/kineto_importer.h"
#include "support/temp_dir.h"

namespace {

using tokenscope::trace::ActivityKind;
using tokenscope::trace::RunData;

struct Twin {
    const char* cuda;
    const char* hip;
    const char* cuda_category;  // driver calls (cuLaunchKernel) are cuda_driver in Kineto
    int kernels;                // GPU work the call starts (a graph launch: several)
    ActivityKind kind;          // what the call becomes
};

std::string event(const char* cat, const std::string& name, int pid, int tid, int ts_us, int dur_us,
                  const std::string& args) {
    return R"({"ph":"X","cat":")" + std::string(cat) + R"(","name":")" + name + R"(","pid":)" +
           std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" +
           std::to_string(ts_us) + R"(,"dur":)" + std::to_string(dur_us) + R"(,"args":{)" + args +
           "}}";
}

// One iteration [0, 1000) us: the call at 100 us starts `kernels` kernels of 50 us at
// 300, 400, ... us on stream 7 (correlation 1). A synchronize `call` lasts 200 us from
// 700 us, and `launch` then starts the kernels.
std::string trace_with(const char* call, const char* category, int kernels, bool sync,
                       const char* launch) {
    std::string events = event("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000, "");
    if (sync) {
        events += ",\n" + event("cuda_runtime", launch, 1, 1, 100, 10, R"("correlation":1)");
        events += ",\n" + event(category, call, 1, 1, 700, 200, R"("correlation":2)");
    } else {
        events += ",\n" + event(category, call, 1, 1, 100, 10, R"("correlation":1)");
    }
    for (int k = 0; k < kernels; ++k)
        events += ",\n" + event("kernel", "void gemm_kernel_" + std::to_string(k) + "<64>()", 0, 7,
                                300 + 100 * k, 50, R"("correlation":1,"device":0,"stream":7)");
    // The same device in both twins: only the call names differ.
    return R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"AMD Instinct MI300X",)"
           R"("numSms":304,"warpSize":64}],"traceEvents":[)" +
           events + "]}";
}

RunData import(const tokenscope::test::TempDir& dir, const std::string& name,
               const std::string& json) {
    const std::string path = (dir.path() / (name + ".json")).string();
    std::ofstream(path) << json;
    return tokenscope::import::KinetoImporter().import(path, {}, {});
}

const tokenscope::trace::Activity& call_named(const RunData& run, const std::string& name) {
    for (const auto& a : run.activities)
        if (run.strings.str(a.name) == name) return a;
    throw std::runtime_error("no activity " + name);
}

TEST(HipLaunchTest, HipCallsCountAsTheirCudaTwins) {
    const Twin kTable[] = {
        {"cudaLaunchKernel", "hipLaunchKernel", "cuda_runtime", 1, ActivityKind::Api},
        {"cudaGraphLaunch", "hipGraphLaunch", "cuda_runtime", 3, ActivityKind::Api},
        {"cuLaunchKernel", "hipModuleLaunchKernel", "cuda_driver", 1, ActivityKind::Api},
        {"cuLaunchKernelEx", "hipExtModuleLaunchKernel", "cuda_driver", 1, ActivityKind::Api},
        {"cudaStreamSynchronize", "hipStreamSynchronize", "cuda_runtime", 1, ActivityKind::Sync},
        {"cudaEventSynchronize", "hipEventSynchronize", "cuda_runtime", 1, ActivityKind::Sync},
        {"cudaDeviceSynchronize", "hipDeviceSynchronize", "cuda_runtime", 1, ActivityKind::Sync},
    };
    const tokenscope::test::TempDir dir("tokenscope-hip-launch");
    for (const auto& row : kTable) {
        SCOPED_TRACE(row.hip);
        const bool sync = row.kind == ActivityKind::Sync;
        const RunData cuda =
            import(dir, row.cuda,
                   trace_with(row.cuda, row.cuda_category, row.kernels, sync, "cudaLaunchKernel"));
        const RunData hip =
            import(dir, row.hip,
                   trace_with(row.hip, "cuda_runtime", row.kernels, sync, "hipLaunchKernel"));
        EXPECT_EQ(call_named(cuda, row.cuda).kind, row.kind);
        EXPECT_EQ(call_named(hip, row.hip).kind, row.kind);
        EXPECT_EQ(hip.launches.size(), cuda.launches.size());
        // The first kernel starts 200 us after its call on an idle stream; a graph's
        // others wait only for their predecessor: P95 of {200, 0, 0} us is 180 us.
        const auto cuda_delay = tokenscope::analysis::launch_delay_p95(cuda, {});
        const auto hip_delay = tokenscope::analysis::launch_delay_p95(hip, {});
        ASSERT_TRUE(hip_delay.has_value());
        ASSERT_TRUE(cuda_delay.has_value());
        EXPECT_DOUBLE_EQ(*hip_delay, *cuda_delay);
        EXPECT_DOUBLE_EQ(*hip_delay, !sync && row.kernels == 3 ? 180'000.0 : 200'000.0);
        const auto a = tokenscope::analysis::analyse_run(cuda).assessment.summary;
        const auto b = tokenscope::analysis::analyse_run(hip).assessment.summary;
        ASSERT_EQ(b.steps, 1);
        EXPECT_EQ(b.assigned_ns, a.assigned_ns);
        EXPECT_EQ(b.total_ns, a.total_ns);
    }
}

}  // namespace
