#include "analysis/timeline/timeline_lod.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

namespace tokenscope::analysis {
namespace {

trace::Activity span(std::int64_t start, std::int64_t end) {
    trace::Activity a;
    a.start_ns = start;
    a.end_ns = end;
    return a;
}

// Spans of 1 ns every 2 ns: gaps of 1 ns, far below 3 px at 10 ns/px (30 ns), so the
// block keeps absorbing: one block from 0 to the last end, 2 * 99 + 1 = 199.
TEST(TimelineLod, DenseNarrowSpansFoldIntoOneBlock) {
    std::vector<trace::Activity> lane;
    for (int k = 0; k < 100; ++k) lane.push_back(span(2 * k, 2 * k + 1));
    TimelineLod lod(lane);
    auto items = lod.items(0, 200, 10.0);
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0], (LodItem{0, 199, 0, 100}));
    EXPECT_TRUE(items[0].folded());
    // At 0.1 ns/px every span is 10 px wide: 100 real spans.
    items = lod.items(0, 200, 0.1);
    ASSERT_EQ(items.size(), 100u);
    EXPECT_EQ(items[42], (LodItem{84, 85, 42, 1}));
}

// Three groups of 10 dense spans 1000 ns apart and one 100 ns span between the first
// two, at 10 ns/px (3 px = 30 ns): 3 blocks of 10 and the wide span drawn itself.
TEST(TimelineLod, GroupsFoldSeparatelyAndWideSpansStayReal) {
    std::vector<trace::Activity> lane;
    for (int g = 0; g < 3; ++g) {
        for (int k = 0; k < 10; ++k) lane.push_back(span(1000 * g + 2 * k, 1000 * g + 2 * k + 1));
        if (g == 0) lane.push_back(span(500, 600));
    }
    TimelineLod lod(lane);
    auto items = lod.items(0, 3000, 10.0);
    ASSERT_EQ(items.size(), 4u);
    EXPECT_EQ(items[0], (LodItem{0, 19, 0, 10}));
    EXPECT_EQ(items[1], (LodItem{500, 600, 10, 1}));
    EXPECT_EQ(items[2], (LodItem{1000, 1019, 11, 10}));
    EXPECT_EQ(items[3], (LodItem{2000, 2019, 21, 10}));
}

// The merge distance is min_px: a span starting exactly 30 ns after the block's end
// (10 ns/px) starts a new item; 29 ns after, it joins.
TEST(TimelineLod, MergeDistanceIsMinPixels) {
    std::vector<trace::Activity> apart = {span(0, 1), span(31, 32)};
    auto items = TimelineLod(apart).items(0, 100, 10.0);
    ASSERT_EQ(items.size(), 2u);
    EXPECT_FALSE(items[0].folded());
    EXPECT_FALSE(items[1].folded());
    std::vector<trace::Activity> close = {span(0, 1), span(30, 31)};
    items = TimelineLod(close).items(0, 100, 10.0);
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0], (LodItem{0, 31, 0, 2}));
}

// A long span that started before t0 (and is not the first of the lane) is found.
TEST(TimelineLod, LongSpanStartedBeforeViewIsDrawn) {
    std::vector<trace::Activity> lane = {span(0, 5), span(3, 1000)};
    for (int k = 1; k < 90; ++k) lane.push_back(span(10 * k + 5, 10 * k + 6));
    std::sort(lane.begin(), lane.end(),
              [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    auto items = TimelineLod(lane).items(500, 600, 1.0);
    // The long span, then spans starting at 505, 515, ..., 595: 1 ns wide, 9 ns apart
    // (more than 3 px at 1 ns/px), so each is its own item.
    ASSERT_EQ(items.size(), 11u);
    EXPECT_EQ(items[0], (LodItem{3, 1000, 1, 1}));
    EXPECT_EQ(items[1].start_ns, 505);
    EXPECT_EQ(items[10].start_ns, 595);
}

TEST(TimelineLod, EmptyLaneAndBadScale) {
    std::vector<trace::Activity> none;
    EXPECT_TRUE(TimelineLod(none).items(0, 100, 1.0).empty());
    std::vector<trace::Activity> one = {span(0, 10)};
    EXPECT_THROW(TimelineLod(one).items(0, 100, 0.0), std::invalid_argument);
    EXPECT_TRUE(TimelineLod(one).items(10, 20, 1.0).empty());  // ends exactly at t0
}

// Every activity overlapping [t0, t1) is covered by exactly one item.
void check_cover(const std::vector<trace::Activity>& lane, const std::vector<LodItem>& items,
                 std::int64_t t0, std::int64_t t1) {
    std::vector<int> covered(lane.size(), 0);
    for (const LodItem& it : items) {
        ASSERT_GE(it.count, 1u);
        for (std::size_t i = it.first; i < it.first + it.count; ++i) {
            ASSERT_LT(i, lane.size());
            ++covered[i];
            EXPECT_LE(it.start_ns, lane[i].start_ns);
            EXPECT_GE(it.end_ns, lane[i].end_ns);
        }
        if (!it.folded()) {
            EXPECT_EQ(it.start_ns, lane[it.first].start_ns);
            EXPECT_EQ(it.end_ns, lane[it.first].end_ns);
        }
    }
    for (std::size_t i = 0; i < lane.size(); ++i) {
        const bool visible = lane[i].start_ns < t1 && lane[i].end_ns > t0;
        if (visible) {
            EXPECT_EQ(covered[i], 1) << "activity " << i;
        }
        EXPECT_LE(covered[i], 1) << "activity " << i;
    }
}

// A random lane sorted by start: mostly short spans, some zero-width, some long
// (nested and overlapping); `max_gap` sets how dense it is.
std::vector<trace::Activity> random_lane(std::mt19937_64& rng, int n, int max_gap) {
    std::vector<trace::Activity> lane;
    std::int64_t t = 0;
    for (int i = 0; i < n; ++i) {
        t += std::uniform_int_distribution<int>(0, max_gap)(rng);
        const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
        const std::int64_t len = kind == 0   ? 0
                                 : kind == 1 ? std::uniform_int_distribution<int>(100, 3000)(rng)
                                             : std::uniform_int_distribution<int>(1, 25)(rng);
        lane.push_back(span(t, t + len));
    }
    return lane;
}

TEST(TimelineLod, PropertyEveryVisibleActivityCoveredOnce) {
    std::mt19937_64 rng(12345);
    for (int round = 0; round < 600; ++round) {
        // Odd rounds: dense lanes, whose blocks absorb hundreds of spans at once.
        const bool dense = round % 2 == 1;
        const int n = std::uniform_int_distribution<int>(0, dense ? 3000 : 400)(rng);
        const std::vector<trace::Activity> lane = random_lane(rng, n, dense ? 4 : 40);
        const std::int64_t t = lane.empty() ? 0 : lane.back().start_ns;
        TimelineLod lod(lane);
        const std::int64_t t0 = std::uniform_int_distribution<std::int64_t>(-100, t + 100)(rng);
        const std::int64_t t1 = t0 + std::uniform_int_distribution<std::int64_t>(1, t + 200)(rng);
        const double nspx = std::uniform_real_distribution<double>(0.05, 50.0)(rng);
        const auto items = lod.items(t0, t1, nspx);
        check_cover(lane, items, t0, t1);
        if (HasFailure()) {
            ADD_FAILURE() << "round " << round << " t0 " << t0 << " t1 " << t1 << " ns/px " << nspx;
            return;
        }
    }
}

// 1,000,000 spans of 1-20 ns with gaps of 0-60 ns and an occasional 100 us kernel,
// shown zoomed out on 1500 px: spans narrower than 3 px fold and blocks are at least
// 3 px apart, so the item count stays below the pixel count.
TEST(TimelineLod, ZoomedOutMillionSpansGiveAboutPixelsItems) {
    std::mt19937_64 rng(7);
    std::vector<trace::Activity> lane;
    std::int64_t t = 0;
    for (int i = 0; i < 1'000'000; ++i) {
        const bool big = i % 50'000 == 0;
        const std::int64_t len = big ? 100'000 : std::uniform_int_distribution<int>(1, 20)(rng);
        lane.push_back(span(t, t + len));
        t += len + std::uniform_int_distribution<int>(0, 60)(rng);
    }
    TimelineLod lod(lane);
    const double pixels = 1500;
    const auto items = lod.items(0, t, static_cast<double>(t) / pixels);
    EXPECT_LE(items.size(), static_cast<std::size_t>(pixels));
    EXPECT_GE(items.size(), 1u);
    std::size_t total = 0;
    for (const auto& it : items) total += it.count;
    EXPECT_EQ(total, lane.size());  // nothing visible dropped
}

}  // namespace
}  // namespace tokenscope::analysis
