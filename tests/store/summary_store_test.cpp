// Timeline summaries in the file (schema 10): written with the activities in one pass,
// read back per level and range, built by the migration for older files; each checked
// against the bins computed here straight from the activities.
#include <gtest/gtest.h>

#include <map>
#include <random>
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

constexpr int kWidthLog2 = 12;  // 4.1 us at level 0, forced so the test knows the bins

// A level's bins as the definitions say, one activity at a time.
struct Expected {
    std::int64_t busy = 0, count = 0, longest = -1;
    std::map<std::uint32_t, std::int64_t> names;
};
std::map<std::int64_t, Expected> expected_bins(const std::vector<trace::Activity>& acts, int s) {
    std::map<std::int64_t, Expected> bins;
    for (const auto& a : acts) {
        const std::int64_t t1 = std::max(a.start_ns, a.end_ns);
        const std::int64_t b0 = a.start_ns >> s, b1 = t1 > a.start_ns ? (t1 - 1) >> s : b0;
        ++bins[b0].count;
        for (std::int64_t b = b0; b <= b1; ++b) {
            const std::int64_t in = std::min(t1, (b + 1) << s) - std::max(a.start_ns, b << s);
            Expected& e = bins[b];
            e.busy += in;
            e.names[a.name] += in;
            e.longest = std::max(e.longest, t1 - a.start_ns);
        }
    }
    return bins;
}

// Lane 0: kernels back to back with gaps (a stream); lane 1: host ranges with calls nested
// in them, some ranges written after their calls (as a range's end arrives late).
std::vector<trace::Activity> lane_activities(std::uint16_t lane, int n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<trace::Activity> out;
    std::int64_t t = 1'000'000;
    while (static_cast<int>(out.size()) < n) {
        trace::Activity a;
        a.lane = lane;
        a.kind = lane == 0 ? trace::ActivityKind::Kernel : trace::ActivityKind::Api;
        if (lane == 0 || rng() % 8 != 0) {
            a.start_ns = t + rng() % 3000;
            a.end_ns = a.start_ns + 200 + rng() % (rng() % 50 == 0 ? 2'000'000 : 20'000);
            a.name = 1 + rng() % 6;
            out.push_back(a);
            t = a.end_ns;
            continue;
        }
        // A range over the next few calls, added after them.
        const std::int64_t start = t;
        std::vector<trace::Activity> calls;
        for (int k = 0; k < 5; ++k) {
            trace::Activity c = a;
            c.start_ns = t + 100 + rng() % 500;
            c.end_ns = c.start_ns + 300 + rng() % 3000;
            c.name = 7 + rng() % 3;
            calls.push_back(c);
            t = c.end_ns;
        }
        out.insert(out.end(), calls.begin(), calls.end());
        a.kind = trace::ActivityKind::Range;
        a.start_ns = start;
        a.end_ns = t + 50;
        a.name = 10;
        out.push_back(a);
        t += 50;
    }
    return out;
}

std::int64_t write_lanes(const std::string& path, const std::vector<trace::Activity>& acts) {
    WriterOptions opt;
    opt.summary_width_log2 = kWidthLog2;
    StoreWriter writer(path, opt);
    trace::RunInfo info;
    info.name = "summaries";
    auto run = writer.begin_run(info);
    run->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
    run->add_lane({trace::LaneKind::CpuThread, -1, 1, 1, "main"});
    for (std::uint32_t n = 1; n <= 10; ++n) run->intern("name " + std::to_string(n));
    for (const auto& a : acts) run->add_activity(a);
    run->finish();
    return run->run_id();
}

// Every level of `lane` against expected_bins; the dominant name exactly where the lane's
// activities neither overlap nor arrive late.
void check_lane(const StoreReader& reader, std::int64_t run, std::uint16_t lane,
                const std::vector<trace::Activity>& acts, bool exact_dominant) {
    const auto levels = reader.summary_levels(run, lane);
    ASSERT_EQ(levels.size(), 12u);  // 2^12 .. 2^45
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& a : acts) lo = std::min(lo, a.start_ns), hi = std::max(hi, a.end_ns);
    for (const SummaryLevel& level : levels) {
        ASSERT_EQ(level.width_log2, kWidthLog2);
        const auto want = expected_bins(acts, level.bin_log2());
        const auto got = reader.summary_bins(run, lane, level.level, lo, hi + 1);
        ASSERT_EQ(got.size(), want.size()) << "level " << level.level;
        auto w = want.begin();
        for (const SummaryBin& b : got) {
            const Expected& e = w->second;
            ASSERT_EQ(b.bin, w->first) << "level " << level.level;
            EXPECT_EQ(b.busy_ns, e.busy) << level.level << " bin " << b.bin;
            EXPECT_EQ(b.count, e.count) << level.level << " bin " << b.bin;
            EXPECT_EQ(b.longest_ns, e.longest) << level.level << " bin " << b.bin;
            std::int64_t top = 0;
            for (const auto& [name, ns] : e.names) top = std::max(top, ns);
            if (exact_dominant) {
                EXPECT_EQ(b.dominant_ns, top) << level.level << " bin " << b.bin;
                EXPECT_EQ(e.names.at(b.dominant_name), top) << level.level << " bin " << b.bin;
            } else {
                EXPECT_LE(b.dominant_ns, top) << level.level << " bin " << b.bin;
            }
            ++w;
        }
    }
}

TEST(SummaryStore, EveryLevelHoldsTheBinsOfItsActivities) {
    TempDir dir;
    const std::string path = dir.file("s.tokenscope");
    auto acts = lane_activities(0, 9000, 1);
    const auto host = lane_activities(1, 9000, 2);
    acts.insert(acts.end(), host.begin(), host.end());
    const std::int64_t run = write_lanes(path, acts);
    StoreReader reader(path);
    ASSERT_TRUE(reader.has_summaries(run));
    std::vector<trace::Activity> stream(acts.begin(), acts.begin() + 9000);
    check_lane(reader, run, 0, stream, true);
    check_lane(reader, run, 1, host, false);
}

// Ranges that end last arrive last: a chunk of them spanning the whole run, written
// between others with a marker from its very end (the capture's last), costs records of
// its own, not a late record on every level for each activity after it.
TEST(SummaryStore, RangesArrivingLastKeepTheSummaryCompact) {
    TempDir dir;
    const std::string path = dir.file("late.tokenscope");
    auto acts = lane_activities(0, 8000, 5);
    std::vector<trace::Activity> ranges;
    for (int i = 0; i < 8; ++i) {
        trace::Activity r;
        r.start_ns = acts.front().start_ns + i;
        r.end_ns = acts.back().end_ns + 1000 + i;
        r.name = 10;
        r.kind = trace::ActivityKind::Range;
        ranges.push_back(r);
    }
    trace::Activity last = ranges.back();
    last.kind = trace::ActivityKind::Marker;
    last.start_ns = last.end_ns = acts.back().end_ns + 500;
    ranges.push_back(last);
    // 4096 kernels (one chunk), the ranges (flushed as a chunk of their own), the rest.
    std::vector<trace::Activity> order(acts.begin(), acts.begin() + 4096);
    order.insert(order.end(), ranges.begin(), ranges.end());
    order.insert(order.end(), acts.begin() + 4096, acts.end());
    WriterOptions opt;
    opt.summary_width_log2 = kWidthLog2;
    std::int64_t run = 0;
    {
        StoreWriter writer(path, opt);
        auto w = writer.begin_run({});
        w->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
        for (std::size_t i = 0; i < order.size(); ++i) {
            w->add_activity(order[i]);
            if (i == 4096 + ranges.size() - 1) w->flush();
        }
        w->finish();
        run = w->run_id();
    }
    acts.insert(acts.end(), ranges.begin(), ranges.end());
    StoreReader reader(path);
    check_lane(reader, run, 0, acts, false);
    // A record per bin of each of the two tracks at most (runs of whole bins make fewer).
    for (int level = 0; level < 12; ++level) {
        const auto bins = expected_bins(acts, kWidthLog2 + 3 * level).size();
        const std::int64_t records = tokenscope::test::query_int(
            path, "SELECT sum(count) FROM summary_chunk WHERE level = " + std::to_string(level));
        EXPECT_LE(records, static_cast<std::int64_t>(2 * bins + 4)) << "level " << level;
    }
}

// Thousands of lanes, each with too few records to fill a chunk: the writer writes its
// buffers out once 2^16 records wait, and every lane still adds up at every level.
TEST(SummaryStore, ManyLanesFlushTheirBuffersAndStillAddUp) {
    TempDir dir;
    const std::string path = dir.file("lanes.tokenscope");
    constexpr int kLanes = 3000, kPerLane = 20;
    std::int64_t run = 0;
    {
        WriterOptions opt;
        opt.summary_width_log2 = kWidthLog2;
        StoreWriter writer(path, opt);
        auto w = writer.begin_run({});
        for (int lane = 0; lane < kLanes; ++lane)
            w->add_lane({trace::LaneKind::CpuThread, -1, 1, lane, "thread"});
        w->intern("call");
        // Activity i of every lane at i ms + lane us, 1 us long: a bin of its own on the
        // levels finer than a millisecond.
        for (int i = 0; i < kPerLane; ++i)
            for (int lane = 0; lane < kLanes; ++lane) {
                trace::Activity a;
                a.lane = static_cast<std::uint16_t>(lane);
                a.name = 1;
                a.start_ns = std::int64_t{i} * 1'000'000 + lane * 1000;
                a.end_ns = a.start_ns + 1000;
                w->add_activity(a);
            }
        w->finish();
        run = w->run_id();
    }
    StoreReader reader(path);
    ASSERT_TRUE(reader.has_summaries(run));
    for (std::uint16_t lane : {0, 1, 1499, 2999}) {
        for (const SummaryLevel& level : reader.summary_levels(run, lane)) {
            std::int64_t busy = 0, count = 0;
            for (const auto& b : reader.summary_bins(run, lane, level.level, 0, 1'000'000'000))
                busy += b.busy_ns, count += b.count;
            EXPECT_EQ(busy, kPerLane * 1000) << lane << " level " << level.level;
            EXPECT_EQ(count, kPerLane) << lane << " level " << level.level;
        }
    }
    // Written in several rounds: more chunk rows than lanes x levels.
    EXPECT_GT(tokenscope::test::query_int(path, "SELECT count(*) FROM summary_chunk"), kLanes * 12);
}

// A range asked of a level gets just the bins that overlap it.
TEST(SummaryStore, RangeGivesTheBinsItOverlaps) {
    TempDir dir;
    const std::string path = dir.file("r.tokenscope");
    // Kernels of 1000 ns every 8192 ns: one per level-0 bin pair (4096 ns bins).
    std::vector<trace::Activity> acts;
    for (int i = 0; i < 100; ++i) {
        trace::Activity a;
        a.start_ns = i * 8192;
        a.end_ns = a.start_ns + 1000;
        a.name = 1;
        acts.push_back(a);
    }
    const std::int64_t run = write_lanes(path, acts);
    StoreReader reader(path);
    // [8192 * 10, 8192 * 20): bins 20 to 39, of which the even ones hold a kernel.
    const auto got = reader.summary_bins(run, 0, 0, 8192 * 10, 8192 * 20);
    ASSERT_EQ(got.size(), 10u);
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].bin, 20 + 2 * static_cast<std::int64_t>(i));
        EXPECT_EQ(got[i].busy_ns, 1000);
    }
    EXPECT_TRUE(reader.summary_bins(run, 0, 0, 5, 5).empty());
    // The lane's extent, from the chunk directory: the first start, the last end.
    EXPECT_EQ(reader.lane_bounds(run, 0),
              (std::pair<std::int64_t, std::int64_t>{0, 99 * 8192 + 1000}));
    EXPECT_FALSE(reader.lane_bounds(run, 1));                          // no activities
    EXPECT_TRUE(reader.summary_bins(run, 0, 99, 0, 1 << 30).empty());  // no such level
    EXPECT_THROW(reader.summary_bins(run, 0, 0, 0, std::int64_t{1} << 40), StoreError);
}

// A version 9 file has no summaries; opening it migrates and builds them from its chunks,
// every level with the bins of its activities.
TEST(SummaryStore, MigrationBuildsSummariesOfOlderFiles) {
    TempDir dir;
    const std::string path = dir.file("v9.tokenscope");
    const auto acts = lane_activities(0, 6000, 3);
    const std::int64_t run = write_lanes(path, acts);
    tokenscope::test::downgrade_store(path, 9);
    ASSERT_EQ(tokenscope::test::query_int(
                  path, "SELECT count(*) FROM sqlite_master WHERE name = 'summary_chunk'"),
              0);
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    ASSERT_TRUE(reader.has_summaries(run));
    // Built lane by lane from the chunks, with each lane's own width (about 32 activities a
    // bin here, not the forced one): totals still add up at every level.
    const auto levels = reader.summary_levels(run, 0);
    ASSERT_FALSE(levels.empty());
    std::int64_t busy = 0;
    for (const auto& a : acts) busy += a.end_ns - a.start_ns;
    for (const SummaryLevel& level : levels) {
        const auto want = expected_bins(acts, level.bin_log2());
        const auto got =
            reader.summary_bins(run, 0, level.level, 0, acts.back().end_ns + 2'000'000);
        ASSERT_EQ(got.size(), want.size()) << level.level;
        std::int64_t got_busy = 0, got_count = 0;
        for (const auto& b : got) got_busy += b.busy_ns, got_count += b.count;
        EXPECT_EQ(got_busy, busy);
        EXPECT_EQ(got_count, 6000);
    }
}

// A run abandoned leaves no summary rows; one whose writer never finished (a killed
// capture) is not summarised, whatever rows its batches left.
TEST(SummaryStore, OnlyFinishedRunsAreSummarised) {
    TempDir dir;
    const std::string path = dir.file("k.tokenscope");
    const auto acts = lane_activities(0, 5000, 4);
    {
        StoreWriter writer(path);
        auto abandoned = writer.begin_run({});
        abandoned->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
        for (const auto& a : acts) abandoned->add_activity(a);
        abandoned->abandon();
    }
    EXPECT_EQ(tokenscope::test::query_int(path, "SELECT count(*) FROM summary_chunk"), 0);
    std::int64_t killed = 0;
    {
        StoreWriter writer(path);
        auto w = writer.begin_run({});
        w->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
        for (const auto& a : acts) w->add_activity(a);
        w->flush();
        killed = w->run_id();
    }  // destroyed unfinished: what was flushed stays, as after a kill
    StoreReader reader(path);
    EXPECT_FALSE(reader.has_summaries(killed));
    EXPECT_TRUE(reader.summary_levels(killed, 0).empty());
    EXPECT_EQ(reader.load_run(killed).activities.size(), acts.size());
}

}  // namespace
}  // namespace tokenscope::store
