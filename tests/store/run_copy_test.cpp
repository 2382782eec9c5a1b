// StoreWriter::copy_run: a stored run copied into another file as it streams out (what
// `import` does with a .tokenscope input). Expected values: the source run read whole by
// load_run, and SQL counts of the files.
#include <gtest/gtest.h>

#include <string>

#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::sample_run;
using test::TempDir;
using tokenscope::test::corrupt_root_page;
using tokenscope::test::query_int;
using tokenscope::test::run_sql;

// sample_run with a launch per kernel (5 configurations, more kernels than a launch chunk
// holds) and its first 40 kernels as CUDA graph nodes.
trace::RunData rich_run() {
    trace::RunData run = sample_run("rich", 5);
    std::uint32_t k = 0;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        trace::KernelLaunch l;
        l.correlation = a.correlation;
        l.grid = {k % 5 + 1, 2, 1};
        l.block = {128, 1, 1};
        l.shared_bytes = 1024 * (k % 5);
        l.registers_per_thread = 32;
        run.launches.add(l);
        if (k < 40) run.graphs.add(a.lane, a.start_ns, {7, 500 + std::uint64_t{k}});
        ++k;
    }
    run.launches.finish();
    run.graphs.finish();
    return run;
}

void expect_same_run(const trace::RunData& want, const trace::RunData& got) {
    EXPECT_EQ(got.info.name, want.info.name);
    EXPECT_EQ(got.info.gpu, want.info.gpu);
    EXPECT_EQ(got.info.created_ns, want.info.created_ns);
    EXPECT_EQ(got.lanes, want.lanes);
    ASSERT_EQ(got.strings.size(), want.strings.size());
    for (std::uint32_t i = 0; i < want.strings.size(); ++i)
        EXPECT_EQ(got.strings.str(i), want.strings.str(i));
    EXPECT_EQ(got.activities, want.activities);
    EXPECT_EQ(got.steps, want.steps);
    EXPECT_EQ(got.requests, want.requests);
    EXPECT_EQ(got.counters, want.counters);
    EXPECT_EQ(got.diagnostics, want.diagnostics);
    EXPECT_EQ(got.launches, want.launches);
    EXPECT_EQ(got.graphs, want.graphs);
}

struct Files {
    TempDir dir;
    std::string from = dir.file("from.tokenscope");
    std::string to = dir.file("to.tokenscope");
    std::int64_t source_id = 0;
    std::int64_t earlier_id = 0;  // a run `to` held before the copy
    trace::RunData source, earlier;

    Files() {
        source_id = StoreWriter(from).write_run(rich_run());
        earlier_id = StoreWriter(to).write_run(sample_run("earlier", 2));
        source = StoreReader(from).load_run(source_id);
        earlier = StoreReader(to).load_run(earlier_id);
    }
    // `to` holds its earlier run and nothing of another: no row, chunk or summary.
    void expect_only_the_earlier_run() const {
        EXPECT_EQ(query_int(to, "SELECT count(*) FROM run"), 1);
        for (const char* table : {"activity_chunk", "launch_chunk", "summary_chunk"})
            EXPECT_EQ(query_int(to, std::string("SELECT count(*) FROM ") + table +
                                        " WHERE run_id <> " + std::to_string(earlier_id)),
                      0)
                << table;
    }
};

TEST(RunCopy, CopiesEveryRecordAndGivesTheCopyItsSummaries) {
    Files f;
    ASSERT_GT(f.source.launches.size(), 4096u);  // more than one launch chunk
    ASSERT_EQ(f.source.graphs.size(), 40u);
    std::int64_t copied = 0, last_done = -1, last_total = 0;
    {
        StoreReader reader(f.from);
        StoreWriter writer(f.to);
        copied = writer.copy_run(reader, f.source_id, [&](std::int64_t done, std::int64_t total) {
            EXPECT_GE(done, last_done);
            last_done = done;
            last_total = total;
            return true;
        });
    }
    EXPECT_NE(copied, f.earlier_id);
    EXPECT_EQ(last_done, last_total);
    EXPECT_EQ(last_total, static_cast<std::int64_t>(f.source.activities.size() +
                                                    f.source.launches.size() + 40));
    StoreReader reader(f.to);
    const trace::RunData got = reader.load_run(copied);
    EXPECT_TRUE(got.info.complete);
    expect_same_run(f.source, got);
    EXPECT_TRUE(reader.has_summaries(copied));
    EXPECT_EQ(reader.activity_totals(copied), StoreReader(f.from).activity_totals(f.source_id));
    expect_same_run(f.earlier, reader.load_run(f.earlier_id));
}

TEST(RunCopy, ARunWithoutStoredTotalsIsCopiedWhole) {
    Files f;
    run_sql(f.from, "UPDATE run SET summarized = 0");
    ASSERT_FALSE(StoreReader(f.from).activity_totals(f.source_id));
    StoreReader reader(f.from);
    const std::int64_t copied = StoreWriter(f.to).copy_run(reader, f.source_id);
    expect_same_run(f.source, StoreReader(f.to).load_run(copied));
}

TEST(RunCopy, ADamagedChunkFailsTheCopyNamingItsFileAndLeavesNoRun) {
    Files f;
    corrupt_root_page(f.from, "activity_chunk");
    // As the timeline's reader: no walk first, so the damage is met half-way.
    StoreReader reader(f.from, {.check_whole_file = false, .walk_before_read = false});
    try {
        StoreWriter(f.to).copy_run(reader, f.source_id);
        ADD_FAILURE() << "the damaged run was copied";
    } catch (const StoreError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(f.from), std::string::npos) << what;
        EXPECT_NE(what.find("corrupt"), std::string::npos) << what;
    }
    f.expect_only_the_earlier_run();
}

TEST(RunCopy, ACancelledCopyLeavesNoRun) {
    Files f;
    StoreReader reader(f.from);
    int calls = 0;
    EXPECT_THROW(StoreWriter(f.to).copy_run(
                     reader, f.source_id, [&](std::int64_t, std::int64_t) { return ++calls < 3; }),
                 trace::Cancelled);
    EXPECT_EQ(calls, 3);
    f.expect_only_the_earlier_run();
}

TEST(RunCopy, ARunCopiesIntoItsOwnFile) {
    Files f;
    std::int64_t copied = 0;
    {
        StoreReader reader(f.from);
        copied = StoreWriter(f.from).copy_run(reader, f.source_id);
    }
    StoreReader reader(f.from);
    EXPECT_EQ(reader.run_ids().size(), 2u);
    expect_same_run(f.source, reader.load_run(copied));
    expect_same_run(f.source, reader.load_run(f.source_id));
}

}  // namespace
}  // namespace tokenscope::store
