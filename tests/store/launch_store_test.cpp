// Kernel launch facts in the store: the kernel_launch table of schema 3, the 2 -> 3
// migration, and a version 2 file read without migrating.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

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
    EXPECT_EQ(query_int(path, "SELECT registers FROM kernel_launch WHERE correlation = 9"), 30);
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

    EXPECT_EQ(query_int(path, "SELECT count(*) FROM kernel_launch"), 1);
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
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM sqlite_master WHERE name = 'kernel_launch'"),
              1);
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
    run_sql(path, "UPDATE kernel_launch SET registers = 70000");
    try {
        StoreReader(path).load_run(id);
        FAIL() << "a register count above 65535 was accepted";
    } catch (const StoreError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find("bad.tokenscope"), std::string::npos) << what;
        EXPECT_NE(what.find("kernel_launch.registers"), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace tokenscope::store
