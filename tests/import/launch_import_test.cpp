// Kernel launch facts (grid, block, shared memory, registers) from the importers:
// the real Nsight Systems export checked against SQL on it, the real Kineto trace,
// and the Chrome export's round trip through the Kineto importer.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/chrome_trace_writer.h"
#include "import/kineto/kineto_importer.h"
#include "import/nsys/nsys_importer.h"
#include "kineto_test_util.h"
#include "nsys_test_db.h"
#include "support/fixtures.h"

namespace tokenscope::import {
namespace {

using testing::sql_int;

const std::string kNsys = TOKENSCOPE_FIXTURES_DIR "/nsys/pipit_a100x4_cloverleaf.sqlite";
const std::string kKineto = TOKENSCOPE_FIXTURES_DIR "/kineto/hta_v100_ns_resolution_rank0.json.gz";
constexpr const char* kKernels = " FROM CUPTI_ACTIVITY_KIND_KERNEL";

class NsysLaunches : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        if (std::filesystem::exists(kNsys))
            run_ = new trace::RunData(NsysImporter().import(kNsys, {}, {}));
    }
    static void TearDownTestSuite() {
        delete run_;
        run_ = nullptr;
    }
    void SetUp() override { TOKENSCOPE_NEED_FIXTURE_FILE(kNsys); }
    static std::int64_t sql(const std::string& q) { return sql_int(kNsys, q); }
    static trace::RunData* run_;
};
trace::RunData* NsysLaunches::run_ = nullptr;

TEST_F(NsysLaunches, EveryCorrelatedKernelHasOneLaunch) {
    EXPECT_EQ(static_cast<std::int64_t>(run_->launches.size()),
              sql(std::string("SELECT COUNT(*)") + kKernels + " WHERE correlationId > 0"));
    EXPECT_EQ(run_->launches.size(), 1312u);  // README: 1,312 kernels, one process
    for (const auto& a : run_->activities) {
        if (a.kind == trace::ActivityKind::Kernel) {
            ASSERT_TRUE(run_->launches.find(a.correlation).has_value())
                << "correlation " << a.correlation;
        }
    }
}

TEST_F(NsysLaunches, FieldSumsMatchSql) {
    std::array<std::int64_t, 8> got{};
    for (const auto& l : run_->launches) {
        for (std::size_t i = 0; i < 3; ++i) got[i] += l.grid[i], got[3 + i] += l.block[i];
        got[6] += l.shared_bytes;
        got[7] += l.registers_per_thread;
    }
    const char* columns[] = {"gridX",
                             "gridY",
                             "gridZ",
                             "blockX",
                             "blockY",
                             "blockZ",
                             "staticSharedMemory + dynamicSharedMemory",
                             "registersPerThread"};
    for (std::size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i], sql(std::string("SELECT SUM(") + columns[i] + ")" + kKernels))
            << columns[i];
}

TEST_F(NsysLaunches, FirstKernelsMatchTheirRows) {
    const std::string first = std::string(kKernels) + " ORDER BY start LIMIT 1 OFFSET ";
    for (int k = 0; k < 5; ++k) {
        auto col = [&](const char* c) {
            return sql(std::string("SELECT ") + c + first + std::to_string(k));
        };
        const auto l = run_->launches.find(static_cast<std::uint32_t>(col("correlationId")));
        ASSERT_TRUE(l.has_value()) << "kernel " << k;
        EXPECT_EQ(l->grid[0], col("gridX"));
        EXPECT_EQ(l->grid[1], col("gridY"));
        EXPECT_EQ(l->block[0], col("blockX"));
        EXPECT_EQ(l->block[2], col("blockZ"));
        EXPECT_EQ(l->registers_per_thread, col("registersPerThread"));
        EXPECT_EQ(l->shared_bytes, col("staticSharedMemory + dynamicSharedMemory"));
    }
    // Read with the sqlite3 shell, kept as a tripwire: the earliest kernel is a 115426-block grid.
    EXPECT_EQ(sql(std::string("SELECT gridX") + first + "0"), 115426);
}

TEST(KinetoLaunches, FixtureKernelsAreKeyedByTheirCorrelation) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kKineto);
    trace::RunData run = KinetoImporter().import(kKineto, {}, {});
    EXPECT_EQ(run.launches.size(), 4350u);  // README: 4,350 kernels, each with grid and block
    // Read from the JSON: the first kernel, and the first with shared memory (a cuDNN conv).
    const auto first = run.launches.find(135071);
    ASSERT_TRUE(first.has_value());
    EXPECT_EQ(*first, (trace::KernelLaunch{135071, {4, 106, 1}, {128, 1, 1}, 0, 30}));
    const auto conv = run.launches.find(135973);
    ASSERT_TRUE(conv.has_value());
    EXPECT_EQ(*conv, (trace::KernelLaunch{135973, {3136, 1, 1}, {128, 1, 1}, 16384, 160}));
}

TEST(KinetoLaunches, KernelWithoutCorrelationIsCountedNotKept) {
    std::string path = kineto_test::write_file("launch_nocorr.json", R"J({"traceEvents":[
        {"ph":"X","cat":"kernel","name":"a","pid":0,"tid":7,"ts":1,"dur":1,"args":{"correlation":5,"grid":[2,3,4],"block":[32,1,1],"registers per thread":40,"shared memory":1024}},
        {"ph":"X","cat":"kernel","name":"b","pid":0,"tid":7,"ts":5,"dur":1,"args":{"grid":[9,9,9],"block":[9,1,1]}}]})J");
    trace::RunData run = KinetoImporter().import(path, {}, {});
    ASSERT_EQ(run.launches.size(), 1u);
    EXPECT_EQ(run.launches.at(0), (trace::KernelLaunch{5, {2, 3, 4}, {32, 1, 1}, 1024, 40}));
    const trace::Diagnostic* d = nullptr;
    for (const auto& x : run.diagnostics)
        if (x.name == "kineto_launch_unkeyed") d = &x;
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 1.0);
}

trace::RunData one_kernel_run() {
    trace::RunData run;
    run.info.name = "launch";
    run.lanes = {{trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"}};
    trace::Activity k;
    k.kind = trace::ActivityKind::Kernel;
    k.name = run.strings.intern("gemv");
    k.start_ns = 1000;
    k.end_ns = 5000;
    k.correlation = 42;
    run.activities = {k};
    run.launches = {{42, {132, 2, 1}, {256, 1, 1}, 50176, 64}};
    return run;
}

TEST(ChromeLaunches, KernelEventsCarryKinetoLaunchArgs) {
    std::ostringstream out;
    exporter::ChromeTraceWriter(one_kernel_run()).write(out);
    const std::string json = out.str();
    EXPECT_NE(json.find(R"("grid":[132,2,1],"block":[256,1,1],"registers per thread":64,)"
                        R"("shared memory":50176)"),
              std::string::npos)
        << json;
}

TEST(ChromeLaunches, RoundTripThroughKinetoKeepsLaunches) {
    const trace::RunData run = one_kernel_run();
    std::string path = testing::temp_path("launch_roundtrip.json");
    exporter::ChromeTraceWriter(run).write_file(path);
    EXPECT_EQ(KinetoImporter().import(path, {}, {}).launches, run.launches);
}

TEST(ChromeLaunches, NsysFixtureRoundTripKeepsEveryLaunch) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kNsys);
    const trace::RunData run = NsysImporter().import(kNsys, {}, {});
    std::string path = testing::temp_path("launch_fixture_roundtrip.json");
    exporter::ChromeTraceWriter(run).write_file(path);
    const trace::RunData back = KinetoImporter().import(path, {}, {});
    ASSERT_EQ(back.launches.size(), run.launches.size());
    EXPECT_EQ(back.launches, run.launches);
}

}  // namespace
}  // namespace tokenscope::import
