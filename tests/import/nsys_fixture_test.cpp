// The real Nsight Systems export (CloverLeaf on 4x A100): every count is
// checked against the fixture README and against an SQL query made here.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "import/nsys/nsys_importer.h"
#include "nsys_test_db.h"
#include "support/fixtures.h"

namespace tokenscope::import {
namespace {

using testing::sql_int;
using trace::ActivityKind;

const std::string kFixture = TOKENSCOPE_FIXTURES_DIR "/nsys/pipit_a100x4_cloverleaf.sqlite";

class NsysFixture : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        if (!std::filesystem::exists(kFixture)) return;  // SetUp says so, per test
        run_ = new trace::RunData(NsysImporter().import(kFixture, {}, {}));
    }
    static void TearDownTestSuite() {
        delete run_;
        run_ = nullptr;
    }
    void SetUp() override { TOKENSCOPE_NEED_FIXTURE_FILE(kFixture); }
    static std::int64_t count(ActivityKind kind, trace::CopyKind copy = trace::CopyKind::None) {
        return std::count_if(run_->activities.begin(), run_->activities.end(), [&](const auto& a) {
            return a.kind == kind && (copy == trace::CopyKind::None || a.copy == copy);
        });
    }
    static std::int64_t sql(const std::string& q) { return sql_int(kFixture, q); }
    static trace::RunData* run_;
};
trace::RunData* NsysFixture::run_ = nullptr;

TEST_F(NsysFixture, KernelCountMatchesReadmeAndSql) {
    EXPECT_EQ(count(ActivityKind::Kernel), 1312);  // README
    EXPECT_EQ(count(ActivityKind::Kernel), sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
}

TEST_F(NsysFixture, MemcpyCountsByKindMatchReadmeAndSql) {
    EXPECT_EQ(count(ActivityKind::Memcpy), 279);
    EXPECT_EQ(count(ActivityKind::Memcpy, trace::CopyKind::H2D), 254);
    EXPECT_EQ(count(ActivityKind::Memcpy, trace::CopyKind::D2H), 25);
    EXPECT_EQ(count(ActivityKind::Memcpy, trace::CopyKind::H2D),
              sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 1"));
    EXPECT_EQ(count(ActivityKind::Memcpy, trace::CopyKind::D2H),
              sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 2"));
    std::uint64_t bytes = 0;
    for (const auto& a : run_->activities)
        if (a.kind == ActivityKind::Memcpy) bytes += a.bytes;
    EXPECT_EQ(static_cast<std::int64_t>(bytes),
              sql("SELECT SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY"));
}

TEST_F(NsysFixture, RuntimeAndSyncCountsMatch) {
    EXPECT_EQ(count(ActivityKind::Api), 3048);
    EXPECT_EQ(count(ActivityKind::Api), sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    EXPECT_EQ(count(ActivityKind::Sync),
              sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
    EXPECT_EQ(count(ActivityKind::Memset), 0);  // no MEMSET table in this export
}

TEST_F(NsysFixture, LanesMatchDistinctStreamsAndThreads) {
    std::int64_t streams = 0, threads = 0;
    for (const auto& l : run_->lanes) {
        streams += l.kind == trace::LaneKind::GpuStream;
        threads += l.kind == trace::LaneKind::CpuThread;
    }
    EXPECT_EQ(streams, sql("SELECT COUNT(*) FROM (SELECT deviceId, streamId FROM "
                           "CUPTI_ACTIVITY_KIND_KERNEL UNION SELECT deviceId, streamId FROM "
                           "CUPTI_ACTIVITY_KIND_MEMCPY)"));
    EXPECT_EQ(threads, sql("SELECT COUNT(DISTINCT globalTid) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
    // The one API thread is named from ThreadNames.
    for (const auto& l : run_->lanes)
        if (l.kind == trace::LaneKind::CpuThread) {
            EXPECT_EQ(l.name, "cuda-cloverleaf (1701896)");
            EXPECT_EQ(l.process, 1701896);
        }
}

TEST_F(NsysFixture, EveryKernelLinksToItsApiCall) {
    std::set<std::uint32_t> api;
    for (const auto& a : run_->activities)
        if (a.kind == ActivityKind::Api) api.insert(a.correlation);
    std::int64_t linked = 0;
    for (const auto& a : run_->activities)
        if (a.kind == ActivityKind::Kernel && api.contains(a.correlation)) ++linked;
    EXPECT_EQ(linked, sql("SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                          "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId"));
}

TEST_F(NsysFixture, TimesAreTheFileNanosecondsAndLanesAreSorted) {
    std::int64_t first_kernel = INT64_MAX;
    for (const auto& a : run_->activities)
        if (a.kind == ActivityKind::Kernel) first_kernel = std::min(first_kernel, a.start_ns);
    EXPECT_EQ(first_kernel, sql("SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(first_kernel, 533338240);
    EXPECT_TRUE(std::is_sorted(
        run_->activities.begin(), run_->activities.end(), [](const auto& a, const auto& b) {
            return a.lane != b.lane ? a.lane < b.lane : a.start_ns < b.start_ns;
        }));
}

TEST_F(NsysFixture, RunInfoComesFromTargetTables) {
    const auto& info = run_->info;
    EXPECT_EQ(info.name, "pipit_a100x4_cloverleaf");
    EXPECT_EQ(info.source, trace::Source::Nsys);
    EXPECT_EQ(info.gpu.name, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(info.gpu.sm_count, 108);
    EXPECT_DOUBLE_EQ(info.gpu.peak_bandwidth, 2039040000000.0);
    EXPECT_EQ(info.created_ns, 1696392839587175550);
    EXPECT_EQ(info.driver_version, "525.105.17");
    EXPECT_EQ(info.host, "nid008553");
    EXPECT_NE(info.workload_json.find("cuda-cloverleaf"), std::string::npos);
}

TEST_F(NsysFixture, DiagnosticsExplainWhatIsAbsent) {
    bool no_steps = false, missing_nvtx = false;
    for (const auto& d : run_->diagnostics) {
        no_steps |= d.name == "no_steps";
        missing_nvtx |=
            d.name == "nsys_missing_tables" && d.text.find("NVTX_EVENTS") != std::string::npos;
        EXPECT_NE(d.name, "unknown_copy_kind");
    }
    EXPECT_TRUE(no_steps);
    EXPECT_TRUE(missing_nvtx);
    EXPECT_TRUE(run_->steps.empty());
}

TEST(NsysFixtureFile, ImportNeverModifiesTheFile) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kFixture);
    struct stat before {
    }, after{};
    ASSERT_EQ(::stat(kFixture.c_str(), &before), 0);
    std::int64_t final_done = 0, final_total = 0;
    NsysImporter().import(kFixture, {}, [&](std::int64_t d, std::int64_t t) {
        final_done = d;
        final_total = t;
        return true;
    });
    ASSERT_EQ(::stat(kFixture.c_str(), &after), 0);
    EXPECT_EQ(before.st_size, after.st_size);
    EXPECT_EQ(before.st_mtim.tv_sec, after.st_mtim.tv_sec);
    EXPECT_EQ(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec);
    EXPECT_FALSE(std::filesystem::exists(kFixture + "-journal"));
    EXPECT_FALSE(std::filesystem::exists(kFixture + "-wal"));
    // 1312 kernels + 279 copies + 3048 runtime + 1312 sync rows
    EXPECT_EQ(final_total, 5951);
    EXPECT_EQ(final_done, 5951);
}

}  // namespace
}  // namespace tokenscope::import
