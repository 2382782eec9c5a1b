// Activity totals in the file (schema 12): written with the summaries in the same pass,
// read per lane or for the run, and equal to what the test counts of the activities it
// wrote; a summarised run read without its activities keeps everything else it holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <tuple>
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
using trace::ActivityKind;
using trace::CopyKind;
using Parts = StoreReader::LoadParts;

// sample_run's activities and one of every other kind and copy direction, with bytes
// past 2^63 in all on one cell, so the sum wraps.
trace::RunData varied_run() {
    trace::RunData run = test::sample_run("totals", 5);
    const std::uint32_t name = run.strings.intern("other");
    std::int64_t t = 50'000'000;
    auto add = [&](std::uint16_t lane, ActivityKind kind, CopyKind copy, std::uint64_t bytes) {
        run.activities.push_back({t, t + 500, bytes, 0, name, 0, lane, kind, copy});
        t += 1000;
    };
    for (int i = 0; i < 3; ++i) add(2, ActivityKind::Memcpy, CopyKind::D2H, 4096);
    add(2, ActivityKind::Memcpy, CopyKind::P2P, 1ULL << 63);
    add(2, ActivityKind::Memcpy, CopyKind::P2P, 1ULL << 63);
    add(2, ActivityKind::Memcpy, CopyKind::P2P, 7);
    add(1, ActivityKind::Memcpy, CopyKind::D2D, 100);
    add(1, ActivityKind::Memset, CopyKind::None, 256);
    add(0, ActivityKind::Sync, CopyKind::None, 0);
    add(0, ActivityKind::Range, CopyKind::None, 0);
    add(4, ActivityKind::Marker, CopyKind::None, 0);
    add(0, ActivityKind::Memcpy, CopyKind::H2H, 9);
    return run;
}

using Key = std::tuple<int, int, int>;  // lane, kind, copy
struct Cell {
    std::int64_t count = 0;
    std::uint64_t bytes = 0;
    std::int64_t first = INT64_MAX, last = INT64_MIN;
};

// Counted here, cell by cell, from the activities the test wrote.
std::map<Key, Cell> hand_count(const std::vector<trace::Activity>& acts) {
    std::map<Key, Cell> out;
    for (const auto& a : acts) {
        auto& c = out[{a.lane, static_cast<int>(a.kind), static_cast<int>(a.copy)}];
        ++c.count;
        c.bytes += a.bytes;
        c.first = std::min(c.first, a.start_ns);
        c.last = std::max(c.last, a.end_ns);
    }
    return out;
}

void expect_totals(const trace::ActivityTotals& got, const std::map<Key, Cell>& want, int lane) {
    for (std::size_t k = 0; k < trace::kActivityKindCount; ++k)
        for (std::size_t c = 0; c < trace::kCopyKindCount; ++c) {
            Cell sum;
            for (const auto& [key, cell] : want)
                if ((lane < 0 || std::get<0>(key) == lane) &&
                    std::get<1>(key) == static_cast<int>(k) &&
                    std::get<2>(key) == static_cast<int>(c)) {
                    sum.count += cell.count;
                    sum.bytes += cell.bytes;
                    sum.first = std::min(sum.first, cell.first);
                    sum.last = std::max(sum.last, cell.last);
                }
            EXPECT_EQ(got.cells[k][c].count, sum.count) << "lane " << lane << " " << k << "/" << c;
            EXPECT_EQ(got.cells[k][c].bytes, sum.bytes) << "lane " << lane << " " << k << "/" << c;
            if (sum.count == 0) continue;
            EXPECT_EQ(got.cells[k][c].first_start_ns, sum.first) << lane << " " << k << "/" << c;
            EXPECT_EQ(got.cells[k][c].last_end_ns, sum.last) << lane << " " << k << "/" << c;
        }
}

TEST(ActivityTotalStore, TotalsEqualTheActivitiesCountedByHand) {
    TempDir dir;
    const std::string path = dir.file("t.tokenscope");
    const auto run = varied_run();
    const std::int64_t id = StoreWriter(path).write_run(run);
    StoreReader reader(path);
    const auto want = hand_count(run.activities);
    const auto whole = reader.activity_totals(id);
    ASSERT_TRUE(whole);
    expect_totals(*whole, want, -1);
    EXPECT_EQ(whole->activities(), static_cast<std::int64_t>(run.activities.size()));
    // 2^63 + 2^63 + 7 wraps to 7.
    EXPECT_EQ(whole->cell(ActivityKind::Memcpy, CopyKind::P2P).bytes, 7u);
    for (std::uint16_t lane = 0; lane < run.lanes.size(); ++lane) {
        const auto one = reader.activity_totals(id, lane);
        ASSERT_TRUE(one);
        expect_totals(*one, want, lane);
    }
}

// Read without its activities, a run keeps its info, lanes, steps, requests, counters and
// diagnostics as a whole read gives them, and says what the file holds of the rest.
TEST(ActivityTotalStore, ARunReadWithoutActivitiesKeepsTheRest) {
    TempDir dir;
    const std::string path = dir.file("t.tokenscope");
    const auto written = varied_run();
    const std::int64_t id = StoreWriter(path).write_run(written);
    StoreReader reader(path);
    const auto whole = reader.load_run(id);
    const auto light = reader.load_run(id, {}, Parts::TotalsForActivities);
    EXPECT_FALSE(whole.in_file);
    ASSERT_TRUE(light.in_file);
    EXPECT_TRUE(light.activities.empty());
    EXPECT_EQ(light.launches.size(), 0u);
    expect_totals(light.in_file->totals, hand_count(written.activities), -1);
    EXPECT_EQ(light.activity_totals(), whole.activity_totals());
    EXPECT_EQ(light.launch_count(), whole.launch_count());
    EXPECT_EQ(light.graph_activity_count(), whole.graph_activity_count());
    std::int64_t first = written.activities.front().start_ns;
    for (const auto& a : written.activities) first = std::min(first, a.start_ns);
    EXPECT_EQ(light.in_file->totals.first_start_ns(), first);
    EXPECT_EQ(light.info.name, whole.info.name);
    EXPECT_EQ(light.info.id, whole.info.id);
    EXPECT_EQ(light.lanes.size(), whole.lanes.size());
    EXPECT_EQ(light.strings.size(), whole.strings.size());
    ASSERT_EQ(light.steps.size(), whole.steps.size());
    for (std::size_t i = 0; i < light.steps.size(); ++i)
        EXPECT_EQ(light.steps[i].end_ns, whole.steps[i].end_ns) << i;
    EXPECT_EQ(light.requests.size(), whole.requests.size());
    EXPECT_EQ(light.counters.size(), whole.counters.size());
    EXPECT_EQ(light.diagnostics.size(), whole.diagnostics.size());
}

// A run without its summaries (a capture that did not finish) has no totals: it is read
// whole whatever was asked.
TEST(ActivityTotalStore, ARunWithoutSummariesIsReadWhole) {
    TempDir dir;
    const std::string path = dir.file("t.tokenscope");
    const auto written = varied_run();
    const std::int64_t id = StoreWriter(path).write_run(written);
    tokenscope::test::run_sql(path, "UPDATE run SET summarized = 0");
    StoreReader reader(path, {.migrate = false});
    EXPECT_FALSE(reader.activity_totals(id));
    const auto run = reader.load_run(id, {}, Parts::TotalsForActivities);
    EXPECT_FALSE(run.in_file);
    EXPECT_EQ(run.activities.size(), written.activities.size());
}

// A version 11 file migrates: its summaries are built again, with the totals.
TEST(ActivityTotalStore, MigrationCountsTheActivitiesOfVersion11Files) {
    TempDir dir;
    const std::string path = dir.file("v11.tokenscope");
    const auto written = varied_run();
    const std::int64_t id = StoreWriter(path).write_run(written);
    tokenscope::test::downgrade_store(path, 11);
    {
        StoreReader as_is(path, {.migrate = false});
        EXPECT_EQ(as_is.schema_version(), 11);
        EXPECT_TRUE(as_is.has_summaries(id));
        EXPECT_FALSE(as_is.activity_totals(id));  // read whole, then
    }
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    const auto totals = reader.activity_totals(id);
    ASSERT_TRUE(totals);
    expect_totals(*totals, hand_count(written.activities), -1);
}

// A file that is not migrated gets its totals in the summary cache, never in the file.
TEST(ActivityTotalStore, ACachedFileHasItsTotalsInTheCache) {
    TempDir dir;
    const std::string path = dir.file("v9.tokenscope");
    const auto written = varied_run();
    const std::int64_t id = StoreWriter(path).write_run(written);
    tokenscope::test::downgrade_store(path, 9);
    const auto before = std::filesystem::last_write_time(path);
    ::setenv("XDG_CACHE_HOME", dir.file("cache").c_str(), 1);
    StoreReader reader(path, {.migrate = false});
    EXPECT_FALSE(reader.activity_totals(id));
    EXPECT_TRUE(reader.build_summary_cache());
    const auto totals = reader.activity_totals(id);
    ASSERT_TRUE(totals);
    expect_totals(*totals, hand_count(written.activities), -1);
    EXPECT_EQ(reader.schema_version(), 9);
    EXPECT_EQ(std::filesystem::last_write_time(path), before);
    ::unsetenv("XDG_CACHE_HOME");
}

class BadTotal : public ::testing::TestWithParam<const char*> {};

// A planted row the reader cannot believe names the file and the problem.
TEST_P(BadTotal, NamesTheFile) {
    TempDir dir;
    const std::string path = dir.file("bad.tokenscope");
    const std::int64_t id = StoreWriter(path).write_run(varied_run());
    tokenscope::test::run_sql(path, GetParam());
    StoreReader reader(path);
    try {
        reader.activity_totals(id);
        FAIL() << "no error for " << GetParam();
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("corrupt file"), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(
    Rows, BadTotal,
    ::testing::Values("INSERT INTO activity_total VALUES (1, 0, 'kernal', 'none', 1, 0, 0, 0)",
                      "INSERT INTO activity_total VALUES (1, 0, 'memcpy', 'sideways', 1, 0, 0, 0)",
                      "UPDATE activity_total SET count = -1 WHERE kind = 'kernel'",
                      "INSERT INTO activity_total VALUES (1, 9, 'kernel', 'none', "
                      "9223372036854775807, 0, 0, 0)"));

}  // namespace
}  // namespace tokenscope::store
