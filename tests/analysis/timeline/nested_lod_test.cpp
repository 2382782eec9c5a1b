#include "analysis/timeline/nested_lod.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace tokenscope::analysis {
namespace {

// At 10 ns/px a span is wide from 30 ns (3 px). A wide range at depth 0 holding dense
// 5 ns calls at depth 1: the range is drawn itself, the calls fold into one block of
// their row, as TimelineLod folds a flat lane.
TEST(NestedLod, NarrowChildrenFoldPerRowWideParentsStay) {
    NestedLod lod(10.0, 4);
    lod.add(0, 0, 1000, 0);
    for (std::size_t k = 0; k < 20; ++k)
        lod.add(1 + k, 10 + 10 * static_cast<std::int64_t>(k),
                15 + 10 * static_cast<std::int64_t>(k), 1);
    const auto items = lod.finish();
    ASSERT_EQ(items.size(), 2u);
    EXPECT_EQ(items[0], (LodItem{0, 1000, 0, 1, 0}));
    EXPECT_EQ(items[1], (LodItem{10, 205, 1, 20, 1}));
}

// The join distance is TimelineLod's: a narrow span joins when it starts less than
// wide_ns after the block's end, and opens a new block at exactly that distance.
TEST(NestedLod, JoinDistanceIsTheFlatRule) {
    EXPECT_EQ(TimelineLod::wide_ns(10.0, 3.0), 30);
    NestedLod joined(10.0, 1);
    joined.add(0, 0, 5, 0);
    joined.add(1, 34, 39, 0);  // 29 ns after the end
    EXPECT_EQ(joined.finish(), (std::vector<LodItem>{{0, 39, 0, 2, 0}}));
    NestedLod apart(10.0, 1);
    apart.add(0, 0, 5, 0);
    apart.add(1, 35, 40, 0);  // 30 ns after the end
    EXPECT_EQ(apart.finish(), (std::vector<LodItem>{{0, 5, 0, 1, 0}, {35, 40, 1, 1, 0}}));
}

// Rows below the last shown share it; a wide span between narrow ones of its row ends
// the row's block.
TEST(NestedLod, DeepRowsShareTheLastAndWideSpansSplitBlocks) {
    NestedLod lod(1.0, 2);
    lod.add(0, 0, 1, 3);      // depth 3 -> row 1
    lod.add(1, 1, 2, 1);      // joins
    lod.add(2, 2, 100, 1);    // wide: closes the block
    lod.add(3, 100, 101, 5);  // a new block of row 1
    const auto items = lod.finish();
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0], (LodItem{0, 2, 0, 2, 1}));
    EXPECT_EQ(items[1], (LodItem{2, 100, 2, 1, 1}));
    EXPECT_EQ(items[2], (LodItem{100, 101, 3, 1, 1}));
}

TEST(NestedLod, BadScaleThrows) {
    EXPECT_THROW(NestedLod(0.0, 1), std::invalid_argument);
    EXPECT_TRUE(NestedLod(1.0, 0).finish().empty());
}

}  // namespace
}  // namespace tokenscope::analysis
