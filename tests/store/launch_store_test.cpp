// Kernel launch facts in the store: the launch_config and launch_chunk tables of
// schema 8, the kernel_launch rows of schemas 3 to 7 (moved into chunks by the 7 -> 8
// migration, read as they are where it cannot run), the 2 -> 3 migration, a version 2
// file read without migrating, and corrupt values and chunks named in the error.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "store/schema.h"
#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::downgrade_store;
using tokenscope::test::query_int;
using tokenscope::test::run_sql;

// A run of `n` kernels on one stream with correlations 1..n, and one step.
trace::RunData sample_run(const std::string& name, std::uint32_t n) {
    trace::RunData run;
    run.info.name = name;
    run.info.source = trace::Source::Nsys;
    run.info.created_ns = 1'700'000'000'000'000'000LL;
    run.lanes = {{trace::LaneKind::GpuStream, 0, 42, 7, "stream 7"}};
    const std::uint32_t gemm = run.strings.intern("gemm");
    for (std::uint32_t i = 0; i < n; ++i) {
        trace::Activity a;
        a.kind = trace::ActivityKind::Kernel;
        a.start_ns = 1000 * (i + 1);
        a.end_ns = a.start_ns + 500;
        a.name = gemm;
        a.correlation = i + 1;
        run.activities.push_back(a);
    }
    run.steps = {{0, 1, trace::Phase::Iteration, 0, 1000 * (n + 1), 0}};
    return run;
}

trace::KernelLaunch launch(std::uint32_t corr, std::array<std::uint32_t, 3> grid,
                           std::array<std::uint32_t, 3> block, std::uint32_t shared,
                           std::uint16_t regs) {
    return trace::KernelLaunch{corr, grid, block, shared, regs};
}

// A version 2 file: what this build writes, with every migration since 2 undone.
std::string make_version2_file(const TempDir& dir, trace::RunData& run) {
    std::string path = dir.file("v2.tokenscope");
    run.info.id = StoreWriter(path).write_run(run);
    run.info.complete = true;
    downgrade_store(path, 2);
    return path;
}

TEST(StoreLaunches, WrittenWithTheRunAndReadBackByCorrelation) {
    TempDir dir;
    std::string path = dir.file("launches.tokenscope");
    trace::RunData run = sample_run("launches", 3);
    // Unsorted on purpose, with the extremes of every field.
    run.launches = {launch(9, {4, 106, 1}, {128, 1, 1}, 0, 30),
                    launch(2, {0xffffffffu, 65535, 65535}, {1024, 1, 64}, 0xffffffffu, 0xffff),
                    launch(5, {1, 1, 1}, {32, 4, 2}, 49152, 255)};
    std::int64_t id = StoreWriter(path).write_run(run);
    StoreReader reader(path);
    EXPECT_TRUE(reader.has_launches());
    trace::RunData got = reader.load_run(id);
    ASSERT_EQ(got.launches.size(), 3u);
    EXPECT_EQ(got.launches.at(0), run.launches.at(1));
    EXPECT_EQ(got.launches.at(1), run.launches.at(2));
    EXPECT_EQ(got.launches.at(2), run.launches.at(0));
    ASSERT_TRUE(got.launches.find(5).has_value());
    EXPECT_EQ(got.launches.find(5)->shared_bytes, 49152u);
    EXPECT_EQ(reader.runs().at(0).launch_count, 3);
    // Three configurations, one chunk of three 8-byte launches, no rows.
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM launch_config"), 3);
    EXPECT_EQ(query_int(path, "SELECT registers FROM launch_config WHERE grid_y = 106"), 30);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM launch_chunk"), 1);
    EXPECT_EQ(query_int(path, "SELECT \"count\" * 100 + length(data) FROM launch_chunk"), 324);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM kernel_launch"), 0);
}

TEST(StoreLaunches, StreamingWriterKeepsFirstOfARepeatedCorrelationAndAbandonDropsThem) {
    TempDir dir;
    std::string path = dir.file("stream.tokenscope");
    StoreWriter writer(path);
    trace::RunInfo info;
    info.name = "streamed";
    auto w = writer.begin_run(info);
    w->add_launch(launch(7, {2, 3, 4}, {32, 1, 1}, 1024, 40));
    w->add_launch(launch(7, {9, 9, 9}, {9, 9, 9}, 9, 9));
    w->add_launch(launch(0, {1, 1, 1}, {1, 1, 1}, 0, 1));  // no correlation: nothing to key by
    w->finish();
    auto dropped = writer.begin_run(info);
    dropped->add_launch(launch(8, {1, 1, 1}, {1, 1, 1}, 0, 1));
    dropped->flush();
    dropped->abandon();

    // Both launches of correlation 7 are stored; the reader keeps the first.
    EXPECT_EQ(query_int(path, "SELECT sum(count) FROM launch_chunk"), 2);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM launch_config"), 2);
    StoreReader reader(path);
    ASSERT_EQ(reader.runs().size(), 1u);
    trace::RunData got = reader.load_run(w->run_id());
    ASSERT_EQ(got.launches.size(), 1u);
    EXPECT_EQ(got.launches.at(0), launch(7, {2, 3, 4}, {32, 1, 1}, 1024, 40));
}

TEST(StoreLaunches, Version2FileMigratesToVersion3AndTakesNewLaunches) {
    TempDir dir;
    trace::RunData old = sample_run("old", 4);
    std::string path = make_version2_file(dir, old);
    ASSERT_EQ(query_int(path, "PRAGMA user_version"), 2);
    {
        StoreReader reader(path);
        EXPECT_EQ(reader.schema_version(), kSchemaVersion);
        EXPECT_TRUE(reader.has_launches());
        trace::RunData got = reader.load_run(old.info.id);
        EXPECT_EQ(got.info, old.info);
        EXPECT_EQ(got.activities.size(), old.activities.size());
        EXPECT_EQ(got.steps, old.steps);
        EXPECT_TRUE(got.launches.empty());
    }
    EXPECT_EQ(query_int(path, "PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(query_int(path,
                        "SELECT count(*) FROM sqlite_master WHERE name IN ('kernel_launch', "
                        "'launch_config', 'launch_chunk')"),
              3);
    trace::RunData fresh = sample_run("fresh", 5);
    fresh.launches = {launch(1, {8, 1, 1}, {256, 1, 1}, 0, 16)};
    std::int64_t id = StoreWriter(path).write_run(fresh);
    StoreReader reader(path);
    EXPECT_EQ(reader.load_run(id).launches, fresh.launches);
    EXPECT_TRUE(reader.load_run(old.info.id).launches.empty());
}

TEST(StoreLaunches, Version2FileThatCannotMigrateIsReadWithoutLaunches) {
    TempDir dir;
    trace::RunData old = sample_run("old", 6);
    std::string path = make_version2_file(dir, old);
    // Another process holds the write lock for longer than the 5 s busy timeout:
    // the migration cannot run, the file must still open and read.
    sqlite3* holder = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    {
        StoreReader reader(path);
        EXPECT_EQ(reader.schema_version(), 2);
        EXPECT_FALSE(reader.has_launches());
        auto runs = reader.runs();
        ASSERT_EQ(runs.size(), 1u);
        EXPECT_EQ(runs[0].launch_count, 0);
        trace::RunData got = reader.load_run(old.info.id);
        EXPECT_EQ(got.info, old.info);
        EXPECT_EQ(got.activities.size(), old.activities.size());
        EXPECT_TRUE(got.launches.empty());
    }
    sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(holder);
    EXPECT_EQ(query_int(path, "PRAGMA user_version"), 2);  // untouched
}

TEST(StoreLaunches, OutOfRangeValueIsACorruptFileNamingTheColumn) {
    TempDir dir;
    std::string path = dir.file("bad.tokenscope");
    trace::RunData run = sample_run("bad", 7);
    run.launches = {launch(3, {1, 1, 1}, {32, 1, 1}, 0, 8)};
    std::int64_t id = StoreWriter(path).write_run(run);
    run_sql(path, "UPDATE launch_config SET registers = 70000");
    try {
        StoreReader(path).load_run(id);
        FAIL() << "a register count above 65535 was accepted";
    } catch (const StoreError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("bad.tokenscope"), std::string::npos) << what;
        EXPECT_NE(what.find("launch_config.registers"), std::string::npos) << what;
    }
}

// A version 7 file whose runs keep their launches as kernel_launch rows: what this
// build writes, with the 7 -> 8 migration undone and the rows put back by hand.
std::string make_version7_file(const TempDir& dir, trace::RunData& run,
                               const std::vector<trace::KernelLaunch>& rows) {
    std::string path = dir.file("v7.tokenscope");
    run.info.id = StoreWriter(path).write_run(run);
    run.info.complete = true;
    downgrade_store(path, 7);
    std::string sql = "BEGIN;";
    for (const auto& l : rows)
        sql += "INSERT INTO kernel_launch VALUES (" + std::to_string(run.info.id) + ", " +
               std::to_string(l.correlation) + ", " + std::to_string(l.grid[0]) + ", " +
               std::to_string(l.grid[1]) + ", " + std::to_string(l.grid[2]) + ", " +
               std::to_string(l.block[0]) + ", " + std::to_string(l.block[1]) + ", " +
               std::to_string(l.block[2]) + ", " + std::to_string(l.shared_bytes) + ", " +
               std::to_string(l.registers_per_thread) + ");";
    run_sql(path, sql + "COMMIT;");
    return path;
}

// Nine launches of two configurations, correlations 1..9 (kernels 1..9 of sample_run).
std::vector<trace::KernelLaunch> two_configurations() {
    std::vector<trace::KernelLaunch> out;
    for (std::uint32_t c = 1; c <= 9; ++c)
        out.push_back(c % 3 == 0 ? launch(c, {132, 1, 1}, {256, 1, 1}, 98304, 168)
                                 : launch(c, {8, 4, 1}, {128, 1, 1}, 0, 32));
    return out;
}

TEST(StoreLaunches, Version7RowsMoveIntoChunksWhenTheFileMigrates) {
    TempDir dir;
    trace::RunData old = sample_run("old", 9);
    const auto rows = two_configurations();
    std::string path = make_version7_file(dir, old, rows);
    ASSERT_EQ(query_int(path, "PRAGMA user_version"), 7);
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    trace::RunData got = reader.load_run(old.info.id);
    ASSERT_EQ(got.launches.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(got.launches.at(i), rows[i]) << i;
    EXPECT_EQ(got.launches.configuration_count(), 2u);
    EXPECT_EQ(reader.runs().at(0).launch_count, 9);
    // The rows became two configurations and one chunk; none is left behind.
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM kernel_launch"), 0);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM launch_config"), 2);
    EXPECT_EQ(query_int(path, "SELECT sum(count) FROM launch_chunk"), 9);
    EXPECT_EQ(query_int(path, "SELECT sum(length(data)) FROM launch_chunk"), 72);
}

TEST(StoreLaunches, Version7FileThatCannotMigrateIsReadFromItsRows) {
    TempDir dir;
    trace::RunData old = sample_run("old", 9);
    const auto rows = two_configurations();
    std::string path = make_version7_file(dir, old, rows);
    sqlite3* holder = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &holder), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    {
        StoreReader reader(path);
        EXPECT_EQ(reader.schema_version(), 7);
        EXPECT_TRUE(reader.has_launches());
        EXPECT_EQ(reader.runs().at(0).launch_count, 9);
        trace::RunData got = reader.load_run(old.info.id);
        ASSERT_EQ(got.launches.size(), rows.size());
        EXPECT_EQ(got.launches.at(2), rows[2]);
        EXPECT_EQ(got.launches.find(6), rows[5]);
    }
    sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(holder);
    EXPECT_EQ(query_int(path, "PRAGMA user_version"), 7);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM kernel_launch"), 9);
}

// More launches than a chunk holds, streamed over several commits, come back whole
// and in order; each commit wrote the chunk it had, so no launch waits for the end.
TEST(StoreLaunches, LaunchesSpanningChunksAndCommitsReadBackWhole) {
    TempDir dir;
    std::string path = dir.file("many.tokenscope");
    StoreWriter writer(path);
    auto w = writer.begin_run(trace::RunInfo{});
    constexpr std::uint32_t kLaunches = 10'000;
    for (std::uint32_t c = 1; c <= kLaunches; ++c) {
        w->add_launch(launch(c, {c % 5 + 1, 1, 1}, {64, 1, 1}, 0, 24));
        if (c == 1000) w->flush();
    }
    w->finish();
    // 1000 (flushed early), then 4096 + 4096 + 808.
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM launch_chunk"), 4);
    EXPECT_EQ(query_int(path, "SELECT max(count) FROM launch_chunk"), 4096);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM launch_config"), 5);
    trace::RunData got = StoreReader(path).load_run(w->run_id());
    ASSERT_EQ(got.launches.size(), kLaunches);
    EXPECT_EQ(got.launches.at(0), launch(1, {2, 1, 1}, {64, 1, 1}, 0, 24));
    EXPECT_EQ(got.launches.at(kLaunches - 1), launch(kLaunches, {1, 1, 1}, {64, 1, 1}, 0, 24));
    EXPECT_EQ(got.launches.find(4097)->grid[0], 4097u % 5 + 1);
}

// What a damaged or hand-made chunk says: the file, the chunk and what is wrong.
TEST(StoreLaunches, CorruptChunksAreNamedInTheError) {
    struct Case {
        const char* sql;
        const char* expect;
    };
    const Case cases[] = {
        {"UPDATE launch_chunk SET count = count + 1", "bytes for a count of 10 launches"},
        {"UPDATE launch_chunk SET data = substr(data, 1, 71)", "holds 71 bytes"},
        {"UPDATE launch_chunk SET count = -1", "for a count of -1"},
        {"DELETE FROM launch_config WHERE id = 1",
         "names launch configuration 1, but the run has 1"},
        {"UPDATE launch_config SET id = 5 WHERE id = 1",
         "are not 0, 1, 2, ... (id 5 at position 1)"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.sql);
        TempDir dir;
        std::string path = dir.file("chunk.tokenscope");
        trace::RunData run = sample_run("chunk", 9);
        for (const auto& l : two_configurations()) run.launches.add(l);
        std::int64_t id = StoreWriter(path).write_run(run);
        run_sql(path, c.sql);
        try {
            StoreReader(path).load_run(id);
            ADD_FAILURE() << "the damaged chunk was read";
        } catch (const StoreError& e) {
            std::string what = e.what();
            EXPECT_NE(what.find("chunk.tokenscope"), std::string::npos) << what;
            EXPECT_NE(what.find(c.expect), std::string::npos) << what;
        }
    }
}
}  // namespace
}  // namespace tokenscope::store
