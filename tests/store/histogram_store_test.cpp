// Duration histograms in the file (schema 11): written with the summaries in the same
// pass, merged by the reader over lanes and blocks, and equal to the histogram of the
// activities themselves, built here from the activities the test wrote.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
constexpr std::int64_t kBlock = std::int64_t{1} << 32;

// Two lanes over ~3 blocks of 4.3 s: kernels of 6 names, and host calls with a range
// over many of them written after them (late for the blocks it starts in).
std::vector<trace::Activity> activities() {
    std::mt19937_64 rng(9);
    std::lognormal_distribution<double> dist(std::log(30'000.0), 1.0);
    std::vector<trace::Activity> out;
    for (std::uint16_t lane = 0; lane < 2; ++lane) {
        std::int64_t t = 1'000'000'000;
        for (int i = 0; i < 12'000; ++i) {
            trace::Activity a;
            a.lane = lane;
            a.name = 1 + static_cast<std::uint32_t>(rng() % 6);
            a.start_ns = t;
            a.end_ns = t + static_cast<std::int64_t>(dist(rng));
            t = a.end_ns + 1'000'000;  // ~1 ms apart: 12 s in all
            out.push_back(a);
        }
    }
    trace::Activity range;
    range.lane = 1;
    range.name = 7;
    range.kind = trace::ActivityKind::Range;
    range.start_ns = 1'000'000'000;
    range.end_ns = 9'000'000'000;
    out.push_back(range);
    range.name = 2;  // a name lane 1's calls have used into later blocks: late for its own
    out.push_back(range);
    return out;
}

std::int64_t write(const std::string& path, const std::vector<trace::Activity>& acts) {
    StoreWriter writer(path);
    auto run = writer.begin_run({});
    run->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
    run->add_lane({trace::LaneKind::CpuThread, -1, 1, 1, "main"});
    for (std::uint32_t n = 1; n <= 7; ++n) run->intern("name " + std::to_string(n));
    for (const auto& a : acts) run->add_activity(a);
    run->finish();
    return run->run_id();
}

// What the reader must give for `name` over [t0, t1): every activity of that name whose
// start's block overlaps it.
DurationHistogram expected(const std::vector<trace::Activity>& acts, std::uint32_t name,
                           std::int64_t t0, std::int64_t t1, int lane = -1) {
    DurationHistogram h;
    for (const auto& a : acts) {
        const std::int64_t block = a.start_ns >> 32;
        if (a.name != name || (lane >= 0 && a.lane != lane)) continue;
        if (block * kBlock < t1 && (block + 1) * kBlock > t0) h.add(a.end_ns - a.start_ns);
    }
    return h;
}

TEST(HistogramStore, MergedHistogramsEqualTheActivitiesOwn) {
    TempDir dir;
    const std::string path = dir.file("h.tokenscope");
    const auto acts = activities();
    const std::int64_t run = write(path, acts);
    StoreReader reader(path);
    for (std::uint32_t name = 1; name <= 7; ++name) {
        const auto whole = reader.duration_histogram(run, name, 0, std::int64_t{1} << 40);
        EXPECT_EQ(whole, expected(acts, name, 0, std::int64_t{1} << 40)) << name;
        EXPECT_GT(whole.count(), 0u);
        for (int lane = 0; lane < 2; ++lane)
            EXPECT_EQ(reader.duration_histogram(run, name, 0, std::int64_t{1} << 40,
                                                static_cast<std::uint16_t>(lane)),
                      expected(acts, name, 0, std::int64_t{1} << 40, lane))
                << name << " lane " << lane;
        // The second block alone.
        EXPECT_EQ(reader.duration_histogram(run, name, kBlock, 2 * kBlock),
                  expected(acts, name, kBlock, 2 * kBlock))
            << name;
    }
    EXPECT_TRUE(reader.duration_histogram(run, 99, 0, std::int64_t{1} << 40).empty());
}

// A name's P50..P99 over the run from the histograms, within the stated error of the
// exact percentiles of its durations.
TEST(HistogramStore, PercentilesWithinTheirBound) {
    TempDir dir;
    const std::string path = dir.file("p.tokenscope");
    const auto acts = activities();
    const std::int64_t run = write(path, acts);
    StoreReader reader(path);
    std::vector<std::int64_t> d;
    for (const auto& a : acts)
        if (a.name == 3) d.push_back(a.end_ns - a.start_ns);
    std::sort(d.begin(), d.end());
    const auto h = reader.duration_histogram(run, 3, 0, std::int64_t{1} << 40);
    for (double q : {0.5, 0.9, 0.95, 0.99}) {
        const double pos = static_cast<double>(d.size() - 1) * q;
        const auto k = static_cast<std::size_t>(pos);
        const double exact = static_cast<double>(d[k]) +
                             (pos - static_cast<double>(k)) * static_cast<double>(d[k + 1] - d[k]);
        EXPECT_LE(std::abs(h.percentile(q) - exact), exact * DurationHistogram::kRelativeError)
            << q;
    }
}

// A version 10 file (summaries, no histograms) migrates: both are built again.
TEST(HistogramStore, MigrationBuildsHistogramsOfVersion10Files) {
    TempDir dir;
    const std::string path = dir.file("v10.tokenscope");
    const auto acts = activities();
    const std::int64_t run = write(path, acts);
    tokenscope::test::downgrade_store(path, 10);
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    ASSERT_TRUE(reader.has_summaries(run));
    for (std::uint32_t name = 1; name <= 7; ++name)
        EXPECT_EQ(reader.duration_histogram(run, name, 0, std::int64_t{1} << 40),
                  expected(acts, name, 0, std::int64_t{1} << 40))
            << name;
}

}  // namespace
}  // namespace tokenscope::store
