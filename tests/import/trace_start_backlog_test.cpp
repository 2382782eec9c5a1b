// A trace that begins while the GPU still runs earlier work (import/trace_start_backlog.h):
// the first traced operation of a stream starts long after its launch with nothing traced
// ahead of it. Written here as Kineto JSON; the real case is the SGLang decode fixture,
// whose first copy starts 463 ms after its launch.
#include <gtest/gtest.h>

#include <string>

#include "import/kineto/kineto_importer.h"
#include "kineto_test_util.h"

namespace {

using namespace tokenscope;

std::string event(const std::string& cat, const std::string& name, int tid, int ts, int dur,
                  int correlation) {
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":)" +
           std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" +
           std::to_string(dur) + R"(,"args":{"correlation":)" + std::to_string(correlation) + "}}";
}

const trace::Diagnostic* backlog(const trace::RunData& run) {
    for (const auto& d : run.diagnostics)
        if (d.name == "trace_start_backlog") return &d;
    return nullptr;
}

trace::RunData import(const std::string& name, int first_kernel_us) {
    // Launch at 100 us for 10 us; its kernel on stream 7 at first_kernel_us; a second
    // launch and kernel follow right after on the same stream (never the first).
    const std::string events = event("cuda_runtime", "cudaLaunchKernel", 1, 100, 10, 1) + "," +
                               event("kernel", "gemm", 7, first_kernel_us, 50, 1) + "," +
                               event("cuda_runtime", "cudaLaunchKernel", 1, 120, 10, 2) + "," +
                               event("kernel", "gemm", 7, first_kernel_us + 9000, 50, 2);
    const std::string path =
        kineto_test::write_file(name, "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]}");
    return import::KinetoImporter().import(path, {}, {});
}

TEST(TraceStartBacklog, AFirstOperationLongAfterItsLaunchIsNamed) {
    // Launched at 110 us (its call's end), run at 5110 us: 5 ms of untraced work ahead.
    const auto run = import("backlog.json", 5110);
    const auto* d = backlog(run);
    ASSERT_NE(d, nullptr);
    EXPECT_DOUBLE_EQ(d->value, 5.0);
    EXPECT_NE(d->text.find("5.000 ms"), std::string::npos) << d->text;
    // 0.9 ms after the launch is a queue of its own making, not a backlog.
    EXPECT_EQ(backlog(import("prompt.json", 1010)), nullptr);
}

}  // namespace
