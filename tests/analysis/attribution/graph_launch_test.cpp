// One cudaGraphLaunch -> many kernels on one correlation id, in a hand-made Nsight
// Systems export (the shape of a node-level export: every kernel of the graph carries
// the correlationId of the launch call). Expected numbers are worked out from the
// rows inserted below and docs/attribution.md.
#include <gtest/gtest.h>

#include <string>

#include "../../import/nsys_test_db.h"
#include "analysis/attribution/attribution.h"
#include "analysis/attribution/verdict.h"
#include "import/nsys/nsys_importer.h"

using namespace tokenscope;
using import::testing::global_tid;
using import::testing::temp_path;
using import::testing::TestDb;

namespace {

const std::string kGt = std::to_string(global_tid(100, 101));
const std::string kGp = std::to_string(global_tid(100, 0));

constexpr int kIterations = 4, kKernels = 6;
constexpr std::int64_t kIterationNs = 1'000'000, kKernelNs = 150'000, kFirstKernelNs = 50'000;
constexpr std::int64_t kLaunchStart = 10'000, kLaunchNs = 5'000;

// Iteration i spans [i * 1 ms, (i + 1) * 1 ms), marked by TensorRT-LLM's NVTX range;
// its cudaGraphLaunch runs [10, 15) us in, its 6 kernels back to back from 50 us.
std::string graph_export() {
    TestDb db(temp_path("graph_launch.sqlite"));
    db.create_modern_schema();
    std::string sql =
        "INSERT INTO StringIds VALUES (1,'cudaGraphLaunch_v10000'),(2,'gemv_kernel'),"
        "(3,'rmsnorm_kernel');";
    for (int i = 0; i < kIterations; ++i) {
        const std::int64_t t = i * kIterationNs, corr = 500 + i;
        sql += "INSERT INTO NVTX_EVENTS VALUES (" + std::to_string(t) + "," +
               std::to_string(t + kIterationNs) + ",59,'[Executor] _forward_step " +
               std::to_string(i) + ": 0 ctx reqs, 16 gen reqs',NULL," + kGt + ",NULL);";
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" +
               std::to_string(t + kLaunchStart) + "," +
               std::to_string(t + kLaunchStart + kLaunchNs) + ",0," + kGt + "," +
               std::to_string(corr) + ",1);";
        for (int k = 0; k < kKernels; ++k) {
            const std::int64_t start = t + kFirstKernelNs + k * kKernelNs;
            sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + std::to_string(start) + "," +
                   std::to_string(start + kKernelNs) + ",0,7," + std::to_string(corr) + "," + kGp +
                   "," + (k % 2 ? "3" : "2") + ",NULL,1,1);";
        }
    }
    db.exec(sql);
    return db.path();
}

}  // namespace

TEST(GraphLaunch, NsysGraphKernelsWaitOnlyForTheirPredecessors) {
    auto run = import::NsysImporter().import(graph_export(), {}, {});
    ASSERT_EQ(run.steps.size(), static_cast<std::size_t>(kIterations));
    EXPECT_EQ(run.steps[1].batch.decode_requests, 16);

    const auto atts = analysis::attribute_steps(run);
    for (const auto& a : atts) {
        const auto& ns = a.assigned;
        using analysis::Category;
        auto at = [&](Category c) { return ns[static_cast<std::size_t>(c)]; };
        // gemv (compute by name) and rmsnorm (memory by name): 3 kernels each.
        EXPECT_EQ(at(Category::GpuCompute), 3 * kKernelNs);
        EXPECT_EQ(at(Category::GpuMemory), 3 * kKernelNs);
        // The cpu share is the launch call alone, not the graph's kernels.
        EXPECT_EQ(at(Category::Cpu), kLaunchNs);
        EXPECT_EQ(at(Category::Scheduling), kIterationNs - kKernels * kKernelNs - kLaunchNs);
    }

    // Each graph's first kernel starts 50 - 10 = 40 us after its launch (the stream
    // went idle 50 us before the iteration); the other five follow their
    // predecessor: delays 4 x 40 us and 20 x 0, P95 at rank 0.95 * 23 = 21.85 between
    // sorted positions 21 and 22, both 40 us. Measured from the launch, the sixth
    // kernel would wait 40 + 5 x 150 us.
    auto r = analysis::assess_run(run, atts);
    double delay = -1;
    for (const auto& rule : r.verdict.rules)
        if (rule.name == "launch_delay_p95_ns") delay = rule.value;
    EXPECT_DOUBLE_EQ(delay, 40'000.0);
}
