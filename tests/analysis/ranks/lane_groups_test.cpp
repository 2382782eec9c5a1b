// Lanes grouped by rank (or process) and GPU: a merged run's groups by hand, and the
// 4xA100 CloverLeaf export (one process; its work all ran on GPU 0) with each group's
// activity count checked against SQL read here.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>

#include "analysis/ranks/lane_groups.h"
#include "import/open_any.h"
#include "support/fixtures.h"

namespace tokenscope::analysis {
namespace {

using trace::LaneKind;

TEST(LaneGroups, MergedRunGroupsByRankThenHostThenGpu) {
    trace::RunData run;
    run.lanes = {
        {LaneKind::GpuStream, 1, 20, 7, "s7", 1},    {LaneKind::CpuThread, -1, 10, 1, "t", 0},
        {LaneKind::StepTrack, -1, 0, 0, "steps", 0}, {LaneKind::GpuStream, 0, 10, 7, "s7", 0},
        {LaneKind::CpuThread, -1, 20, 2, "t", 1},    {LaneKind::Counter, 0, 10, 3, "c", 0}};
    auto groups = lane_groups(run);
    ASSERT_EQ(groups.size(), 4u);
    EXPECT_EQ(groups[0].label, "rank 0 \u00b7 CPU");
    EXPECT_EQ(groups[0].lanes, (std::vector<std::size_t>{1}));
    EXPECT_EQ(groups[1].label, "rank 0 \u00b7 GPU 0");
    EXPECT_EQ(groups[1].lanes, (std::vector<std::size_t>{3, 5}));  // stream and counter
    EXPECT_EQ(groups[2].label, "rank 1 \u00b7 CPU");
    EXPECT_EQ(groups[3].label, "rank 1 \u00b7 GPU 1");
    EXPECT_EQ(groups[3].rank, 1);
    EXPECT_EQ(groups[3].device, 1);
    auto index = lane_group_index(groups, run.lanes.size());
    EXPECT_EQ(index[2], -1);  // the step track is in no group
    EXPECT_EQ(index[0], 3);
    EXPECT_EQ(rank_label(run.lanes[4]), "rank 1");
    // Without ranks, two processes group by process.
    for (auto& l : run.lanes) l.rank = -1;
    groups = lane_groups(run);
    ASSERT_EQ(groups.size(), 4u);
    EXPECT_EQ(groups[0].label, "process 10 \u00b7 CPU");
    EXPECT_EQ(groups[3].label, "process 20 \u00b7 GPU 1");
}

std::int64_t sql_count(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
    std::int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

TEST(LaneGroups, CloverLeafExportGroupsByGpuWithSqlCounts) {
    TOKENSCOPE_NEED_FIXTURE("nsys/pipit_a100x4_cloverleaf.sqlite");
    const std::string path =
        std::string(TOKENSCOPE_FIXTURES_DIR) + "/nsys/pipit_a100x4_cloverleaf.sqlite";
    auto runs = import::open_any(path);
    ASSERT_EQ(runs.size(), 1u);
    const trace::RunData& run = runs.front();
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    // GPUs with work: the devices of kernels and copies (the export has no memsets).
    std::map<std::int32_t, std::int64_t> gpu_work;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT deviceId, count(*) FROM (SELECT deviceId FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT deviceId FROM "
                       "CUPTI_ACTIVITY_KIND_MEMCPY) GROUP BY deviceId",
                       -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW)
        gpu_work[sqlite3_column_int(st, 0)] = sqlite3_column_int64(st, 1);
    sqlite3_finalize(st);
    // Host lanes: every runtime call, and the synchronizations nsys puts on their threads.
    const std::int64_t host =
        sql_count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME") +
        sql_count(db, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
    EXPECT_EQ(sql_count(db, "SELECT count(*) FROM TARGET_INFO_GPU"), 4);
    sqlite3_close(db);

    auto groups = lane_groups(run);
    ASSERT_EQ(groups.size(), gpu_work.size() + 1);  // the host, then each GPU with work
    auto index = lane_group_index(groups, run.lanes.size());
    std::vector<std::int64_t> per_group(groups.size(), 0);
    for (const auto& a : run.activities)
        if (index[a.lane] >= 0) ++per_group[static_cast<std::size_t>(index[a.lane])];
    EXPECT_EQ(groups[0].label, "CPU");
    EXPECT_EQ(per_group[0], host);
    std::size_t g = 1;
    for (const auto& [device, count] : gpu_work) {
        EXPECT_EQ(groups[g].device, device);
        EXPECT_EQ(groups[g].label, "GPU " + std::to_string(device));
        EXPECT_EQ(per_group[g], count) << groups[g].label;
        ++g;
    }
}

}  // namespace
}  // namespace tokenscope::analysis
