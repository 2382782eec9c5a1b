#include <gtest/gtest.h>
#include <sqlite3.h>

#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::downgrade_store;
using tokenscope::test::query_int;

// Schema version 1, written out by hand as an older build produced it: no
// counter_sample table, no step.floor_ns, no run.clock.
constexpr const char* kVersion1 = R"sql(
PRAGMA application_id = 1416319843;
PRAGMA user_version = 1;
CREATE TABLE run (id INTEGER PRIMARY KEY, name TEXT NOT NULL, source TEXT NOT NULL,
    created_ns INTEGER NOT NULL, host TEXT NOT NULL, gpu_name TEXT NOT NULL,
    gpu_sm_count INTEGER NOT NULL, gpu_peak_bandwidth REAL NOT NULL,
    gpu_peak_flops REAL NOT NULL, gpu_pcie_generation INTEGER NOT NULL,
    gpu_pcie_width INTEGER NOT NULL, gpu_nvlink_links INTEGER NOT NULL,
    gpu_nvlink_bandwidth REAL NOT NULL, driver_version TEXT NOT NULL,
    cuda_version TEXT NOT NULL, workload_json TEXT NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0);
CREATE TABLE lane (run_id INTEGER NOT NULL, idx INTEGER NOT NULL, kind TEXT NOT NULL,
    device INTEGER NOT NULL, process INTEGER NOT NULL, native_id INTEGER NOT NULL,
    name TEXT NOT NULL, PRIMARY KEY (run_id, idx)) WITHOUT ROWID;
CREATE TABLE string (run_id INTEGER NOT NULL, id INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (run_id, id)) WITHOUT ROWID;
CREATE TABLE activity_chunk (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL,
    lane INTEGER NOT NULL, start_min INTEGER NOT NULL, start_max INTEGER NOT NULL,
    end_max INTEGER NOT NULL, count INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX activity_chunk_by_lane ON activity_chunk (run_id, lane, start_min);
CREATE TABLE step (run_id INTEGER NOT NULL, request INTEGER NOT NULL, idx INTEGER NOT NULL,
    phase TEXT NOT NULL, start_ns INTEGER NOT NULL, end_ns INTEGER NOT NULL);
CREATE INDEX step_by_request ON step (run_id, request, idx);
CREATE TABLE request (run_id INTEGER NOT NULL, id INTEGER NOT NULL,
    arrival_ns INTEGER NOT NULL, first_token_ns INTEGER NOT NULL, done_ns INTEGER NOT NULL,
    input_len INTEGER NOT NULL, output_len INTEGER NOT NULL, failed INTEGER NOT NULL);
CREATE TABLE diagnostic (run_id INTEGER NOT NULL, name TEXT NOT NULL, severity TEXT NOT NULL,
    value REAL NOT NULL, text TEXT NOT NULL);
INSERT INTO run VALUES (3, 'old run', 'cuda', 1600000000000000000, 'box', 'A100', 108,
    2.0e12, 312e12, 4, 16, 12, 300e9, '470.1', '11.4', '{}', 1);
INSERT INTO lane VALUES (3, 0, 'gpu_stream', 0, 99, 7, 'stream 7');
INSERT INTO string VALUES (3, 1, 'gemm');
-- One chunk of two kernels, encoded by hand (docs/file-format.md):
-- #1 start 1000 (delta 0), duration 500 (zig-zag 1000 = 0xe8 0x07), name 1,
--    correlation 5 (delta 5, zig-zag 10), kernel|none = 0, device 0,
--    bytes 300 (0xac 0x02), flops 0
-- #2 start 1200 (delta 200 = 0xc8 0x01), duration -10 (zig-zag 19), name 1,
--    correlation 4 (delta -1, zig-zag 1), kind memcpy|h2d<<4 = 0x11, device -1, 0, 0
INSERT INTO activity_chunk VALUES (1, 3, 0, 1000, 1200, 1500, 2,
    X'00E807010A0000AC0200' || X'C80113010111FF0000');
INSERT INTO step VALUES (3, 1, 0, 'prefill', 1000, 1500);
INSERT INTO request VALUES (3, 1, 900, 1500, 1500, 16, 1, 0);
INSERT INTO diagnostic VALUES (3, 'cupti_dropped_records', 'data_loss', 2, 'late');
)sql";

TEST(StoreMigration, Version1FileIsMigratedAndReadsBack) {
    TempDir dir;
    std::string path = dir.file("v1.tokenscope");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, kVersion1, nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);

    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    trace::RunData run = reader.load_run(3);
    EXPECT_EQ(run.info.name, "old run");
    EXPECT_EQ(run.info.gpu.sm_count, 108);
    EXPECT_EQ(run.info.clock, trace::ClockDomain::MonotonicRaw);  // the migration default
    EXPECT_TRUE(run.info.complete);
    ASSERT_EQ(run.activities.size(), 2u);
    EXPECT_EQ(run.activities[0],
              (trace::Activity{1000, 1500, 300, 0, 1, 5, 0, trace::ActivityKind::Kernel,
                               trace::CopyKind::None}));
    EXPECT_EQ(run.activities[1],
              (trace::Activity{1200, 1190, 0, 0, 1, 4, 0, trace::ActivityKind::Memcpy,
                               trace::CopyKind::H2D}));
    // The blob's device bytes (0, then -1) are superseded by the lane's device.
    EXPECT_EQ(run.device_of(run.activities[0]), 0);
    EXPECT_EQ(run.device_of(run.activities[1]), 0);
    ASSERT_EQ(run.steps.size(), 1u);
    EXPECT_EQ(run.steps[0].floor_ns, 0);
    EXPECT_EQ(run.steps[0].end_ns, 1500);
    EXPECT_TRUE(run.counters.empty());
    ASSERT_EQ(run.diagnostics.size(), 1u);
    EXPECT_EQ(run.diagnostics[0].value, 2.0);

    // The migration is persistent: the file itself now says version 3 (via 2).
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, nullptr);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(st, 0), kSchemaVersion);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

TEST(StoreMigration, RankAndOriginRoundTrip) {
    TempDir dir;
    std::string path = dir.file("v6.tokenscope");
    trace::RunData run = test::sample_run("ranks", 3);
    std::int64_t id = StoreWriter(path).write_run(run);
    EXPECT_EQ(query_int(path, "SELECT rank FROM lane WHERE idx = 1"), 3);
    EXPECT_EQ(query_int(path, "SELECT origin_utc_ns FROM run"), 1'700'000'000'000'000'123LL);
    trace::RunData got = StoreReader(path).load_run(id);
    ASSERT_EQ(got.lanes.size(), run.lanes.size());
    for (std::size_t i = 0; i < run.lanes.size(); ++i) EXPECT_EQ(got.lanes[i], run.lanes[i]);
    EXPECT_EQ(got.info.origin_utc_ns, run.info.origin_utc_ns);
}

// A version 5 file (no lane.rank, no run.origin_utc_ns) migrates: every lane's rank
// is unknown and the run's origin is NULL; runs written after the migration keep theirs.
TEST(StoreMigration, Version5FileMigratesWithUnknownRanks) {
    TempDir dir;
    std::string path = dir.file("v5.tokenscope");
    std::int64_t id = StoreWriter(path).write_run(test::sample_run("old", 5));
    downgrade_store(path, 5);
    {
        StoreReader reader(path);
        EXPECT_EQ(reader.schema_version(), kSchemaVersion);
        trace::RunData got = reader.load_run(id);
        ASSERT_EQ(got.lanes.size(), 5u);
        for (const auto& l : got.lanes) EXPECT_EQ(l.rank, -1) << l.name;
        EXPECT_EQ(got.lanes[1].name, "stream 7");
        EXPECT_FALSE(got.info.origin_utc_ns);
        ASSERT_EQ(reader.runs().size(), 1u);
        EXPECT_FALSE(reader.runs()[0].info.origin_utc_ns);
    }
    EXPECT_EQ(query_int(path, "PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM lane WHERE rank = -1"), 5);
    std::int64_t fresh = StoreWriter(path).write_run(test::sample_run("new", 6));
    trace::RunData got = StoreReader(path).load_run(fresh);
    EXPECT_EQ(got.lanes[0].rank, 3);
    EXPECT_EQ(got.info.origin_utc_ns, 1'700'000'000'000'000'123LL);
    // An unknown origin is NULL in the file, not a time.
    trace::RunData unknown = test::sample_run("no origin", 7);
    unknown.info.origin_utc_ns.reset();
    std::int64_t uid = StoreWriter(path).write_run(unknown);
    // The migrated run and this one; the run written between them has its origin.
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM run WHERE origin_utc_ns IS NULL"), 2);
    EXPECT_FALSE(StoreReader(path).load_run(uid).info.origin_utc_ns);
}

// A version 5 file that cannot be migrated (another connection holds the write lock
// past the 5 s busy timeout) is read as it is: ranks unknown, origin unknown.
TEST(StoreMigration, Version5FileReadAsItIsWhenReadOnly) {
    TempDir dir;
    std::string path = dir.file("v5ro.tokenscope");
    std::int64_t id = StoreWriter(path).write_run(test::sample_run("old", 5));
    downgrade_store(path, 5);
    sqlite3* lock = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &lock), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(lock, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), 5);
    trace::RunData got = reader.load_run(id);
    ASSERT_EQ(got.lanes.size(), 5u);
    EXPECT_EQ(got.lanes[1].rank, -1);
    EXPECT_FALSE(got.info.origin_utc_ns);
    EXPECT_EQ(got.info.name, "old");
    sqlite3_exec(lock, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(lock);
}

}  // namespace
}  // namespace tokenscope::store
