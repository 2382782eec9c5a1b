#include <gtest/gtest.h>
#include <sqlite3.h>

#include <thread>

#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"

namespace tokenscope::store {
namespace {

using test::TempDir;

// Counts rows of every per-run table with plain SQL, independently of StoreReader.
std::int64_t rows_in_file(const std::string& path) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    std::int64_t total = 0;
    for (const char* table : {"run", "lane", "string", "activity_chunk", "step", "request",
                              "counter_sample", "diagnostic"}) {
        std::string sql = std::string("SELECT count(*) FROM ") + table;
        sqlite3_stmt* st = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << table;
        if (sqlite3_step(st) == SQLITE_ROW) total += sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return total;
}

void write_everything(RunWriter& w, const trace::RunData& run) {
    for (const auto& l : run.lanes) w.add_lane(l);
    for (std::uint32_t i = 1; i < run.strings.size(); ++i) w.intern(run.strings.str(i));
    for (const auto& a : run.activities) w.add_activity(a);
    for (const auto& s : run.steps) w.add_step(s);
    for (const auto& r : run.requests) w.add_request(r);
    for (const auto& c : run.counters) w.add_counter(c);
    for (const auto& d : run.diagnostics) w.add_diagnostic(d);
}

TEST(StoreWriting, AbandonLeavesNoRows) {
    TempDir dir;
    std::string path = dir.file("abandon.tokenscope");
    StoreWriter writer(path, WriterOptions{std::chrono::milliseconds(0)});
    auto w = writer.begin_run(test::sample_run("gone", 1).info);
    write_everything(*w, test::sample_run("gone", 1));
    w->flush();
    EXPECT_GT(w->committed_batches(), 1);  // interval 0: rows really were committed
    EXPECT_GT(rows_in_file(path), 0);
    w->abandon();
    EXPECT_EQ(rows_in_file(path), 0);
    EXPECT_TRUE(StoreReader(path).runs().empty());
}

TEST(StoreWriting, AbandonKeepsOtherRuns) {
    TempDir dir;
    std::string path = dir.file("keep.tokenscope");
    StoreWriter writer(path);
    std::int64_t kept = writer.write_run(test::sample_run("kept", 1));
    std::int64_t before = rows_in_file(path);
    auto w = writer.begin_run({});
    write_everything(*w, test::sample_run("gone", 2));
    w->abandon();
    EXPECT_EQ(rows_in_file(path), before);
    auto runs = StoreReader(path).runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].info.id, kept);
}

TEST(StoreWriting, CancelledWriteRunLeavesNoRun) {
    TempDir dir;
    std::string path = dir.file("cancel.tokenscope");
    StoreWriter writer(path);
    std::int64_t calls = 0;
    auto cancel_midway = [&](std::int64_t done, std::int64_t total) {
        ++calls;
        return done < total / 2;
    };
    EXPECT_THROW(writer.write_run(test::sample_run("c", 1), cancel_midway), trace::Cancelled);
    EXPECT_GT(calls, 2);
    EXPECT_EQ(rows_in_file(path), 0);
    // The writer is usable afterwards.
    writer.write_run(test::sample_run("after", 2));
    EXPECT_EQ(StoreReader(path).runs().size(), 1u);
}

TEST(StoreWriting, CommitsAtLeastEveryInterval) {
    TempDir dir;
    std::string path = dir.file("interval.tokenscope");
    StoreWriter writer(path, WriterOptions{std::chrono::milliseconds(20)});
    auto w = writer.begin_run({});
    w->add_lane({});
    auto t_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    std::int64_t t = 0;
    while (std::chrono::steady_clock::now() < t_end) {
        w->add_activity(
            {t, t + 5, 0, 0, 0, 0, 0, trace::ActivityKind::Kernel, trace::CopyKind::None});
        t += 10;
    }
    // 300 ms of arrivals at a 20 ms interval: about 15 commits, certainly more than 5.
    EXPECT_GE(w->committed_batches(), 5);
    // Committed rows are visible to another connection before the run finishes.
    auto runs = StoreReader(path).runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_GT(runs[0].activity_count, 0);
    EXPECT_FALSE(runs[0].info.complete);
    w->finish();
    EXPECT_EQ(StoreReader(path).runs()[0].activity_count, t / 10);
}

TEST(StoreWriting, PollCommitsAnIdleBatch) {
    TempDir dir;
    std::string path = dir.file("poll.tokenscope");
    StoreWriter writer(path, WriterOptions{std::chrono::milliseconds(10)});
    auto w = writer.begin_run({});
    w->add_step({1, 0, trace::Phase::Prefill, 0, 10, 0});
    w->poll();
    EXPECT_EQ(w->committed_batches(), 0);  // too early
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    w->poll();
    EXPECT_EQ(w->committed_batches(), 1);
    EXPECT_EQ(StoreReader(path).runs().at(0).step_count, 1);
    w->finish();
}

TEST(StoreWriting, OneOpenRunPerWriter) {
    TempDir dir;
    StoreWriter writer(dir.file("one.tokenscope"));
    auto w = writer.begin_run({});
    EXPECT_THROW(writer.begin_run({}), StoreError);
    w->finish();
    EXPECT_NO_THROW(writer.begin_run({})->finish());
}

TEST(StoreWriting, ReopeningAFileAppendsRuns) {
    TempDir dir;
    std::string path = dir.file("append.tokenscope");
    StoreWriter(path).write_run(test::sample_run("a", 1));
    StoreWriter(path).write_run(test::sample_run("b", 2));
    auto runs = StoreReader(path).runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].info.name, "a");
    EXPECT_EQ(runs[1].info.name, "b");
}

}  // namespace
}  // namespace tokenscope::store
