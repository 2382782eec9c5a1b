// ReaderOptions::check_whole_file = false (docs/hostile-input.md): the untrusted-file check
// walks each table before the first read that needs it, so a damaged page fails exactly
// the reads of its table, with the file named, and the reads of other tables go on.
#include <gtest/gtest.h>

#include <string>

#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;

struct Damaged {
    std::string path;
    std::int64_t run = 0;
};

Damaged write_damaged(const TempDir& dir, const std::string& table) {
    Damaged d{dir.file(table + ".tokenscope")};
    d.run = StoreWriter(d.path).write_run(test::sample_run("damaged", 4));
    tokenscope::test::corrupt_root_page(d.path, table);
    return d;
}

template <typename Fn>
void expect_corrupt(const std::string& path, Fn&& read, const char* what) {
    try {
        read();
        ADD_FAILURE() << what << " read a damaged table";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("corrupt file"), std::string::npos) << e.what();
    }
}

constexpr ReaderOptions kPartial{.migrate = false, .check_whole_file = false};

TEST(PartialCheck, DamagedActivitiesFailOnlyTheReadsOfActivities) {
    TempDir dir;
    const auto d = write_damaged(dir, "activity_chunk");
    // Walking the whole file at open finds it at once.
    expect_corrupt(
        d.path, [&] { StoreReader whole(d.path); }, "a whole-file open");
    StoreReader reader(d.path, kPartial);
    EXPECT_TRUE(reader.has_summaries(d.run));
    EXPECT_FALSE(reader.summary_levels(d.run, 1).empty());
    EXPECT_TRUE(reader.activity_totals(d.run));
    const auto light = reader.load_run(d.run, {}, StoreReader::LoadParts::TotalsForActivities);
    EXPECT_EQ(light.steps.size(), 4u);
    expect_corrupt(
        d.path, [&] { reader.lane_bounds(d.run, 1); }, "lane_bounds");
    expect_corrupt(
        d.path, [&] { reader.for_each_activity(d.run, 1, 0, 1, [](const trace::Activity&) {}); },
        "for_each_activity");
    expect_corrupt(
        d.path, [&] { reader.load_run(d.run); }, "load_run");
    expect_corrupt(
        d.path, [&] { reader.runs(); }, "runs");
}

TEST(PartialCheck, DamagedSummariesFailOnlyTheReadsOfSummaries) {
    TempDir dir;
    const auto d = write_damaged(dir, "summary_chunk");
    StoreReader reader(d.path, kPartial);
    expect_corrupt(
        d.path, [&] { reader.summary_levels(d.run, 1); }, "summary_levels");
    EXPECT_TRUE(reader.activity_totals(d.run));
    std::int64_t seen = 0;
    reader.for_each_activity(d.run, 1, 0, std::int64_t{1} << 62,
                             [&](const trace::Activity&) { ++seen; });
    EXPECT_EQ(seen, 10'000);  // sample_run's kernels, all on lane 1
}

TEST(PartialCheck, DamagedLaunchesFailOnlyTheReadsOfLaunches) {
    TempDir dir;
    Damaged d{dir.file("launches.tokenscope")};
    auto run = test::sample_run("damaged", 4);
    // Enough launches for launch_chunk to span pages of its own.
    for (std::uint32_t c = 1; c <= 20'000; ++c)
        run.launches.add(trace::KernelLaunch{c, {c, 1, 1}, {128, 1, 1}, 0, 32});
    run.launches.finish();
    d.run = StoreWriter(d.path).write_run(run);
    tokenscope::test::corrupt_root_page(d.path, "launch_chunk");
    // The open no longer walks the launch chunks: summaries and activities read on.
    StoreReader reader(d.path, kPartial);
    EXPECT_FALSE(reader.summary_levels(d.run, 1).empty());
    std::int64_t seen = 0;
    reader.for_each_activity(d.run, 1, 0, std::int64_t{1} << 62,
                             [&](const trace::Activity&) { ++seen; });
    EXPECT_EQ(seen, 10'000);
    // Counting them for `info` meets the damaged root page; reading them walks it first.
    expect_corrupt(
        d.path, [&] { reader.load_run(d.run, {}, StoreReader::LoadParts::TotalsForActivities); },
        "a light load_run");
    expect_corrupt(
        d.path, [&] { reader.load_run(d.run); }, "load_run");
}

TEST(PartialCheck, UndamagedLaunchesAreCountedWithoutAWalk) {
    TempDir dir;
    const std::string path = dir.file("launches.tokenscope");
    auto run = test::sample_run("whole", 4);
    for (std::uint32_t c = 1; c <= 3'000; ++c)
        run.launches.add(trace::KernelLaunch{c, {c, 1, 1}, {128, 1, 1}, 0, 32});
    run.launches.finish();
    const auto id = StoreWriter(path).write_run(run);
    StoreReader reader(path, kPartial);
    const auto light = reader.load_run(id, {}, StoreReader::LoadParts::TotalsForActivities);
    ASSERT_TRUE(light.in_file);
    EXPECT_EQ(light.in_file->launches, 3'000);
    EXPECT_EQ(reader.load_run(id).launches.size(), 3'000u);
}

TEST(PartialCheck, DamagedStepsFailTheOpen) {
    TempDir dir;
    const auto d = write_damaged(dir, "step");
    expect_corrupt(
        d.path, [&] { StoreReader reader(d.path, kPartial); }, "a partial open");
}

}  // namespace
}  // namespace tokenscope::store
