#include "analysis/timeline/summary_lod.h"

#include <gtest/gtest.h>

#include <vector>

namespace tokenscope::analysis {
namespace {

// Levels of 2^10, 2^13, 2^16 ns bins: the coarsest at most 2 px wide is chosen.
TEST(SummaryLod, CoarsestLevelAtMostTwoPixels) {
    const std::vector<store::SummaryLevel> levels{{0, 10}, {1, 10}, {2, 10}};
    EXPECT_EQ(SummaryLod::level_for(levels, 100.0), -1);  // 1024 ns = 10 px: activities
    EXPECT_EQ(SummaryLod::level_for(levels, 512.0), 0);   // exactly 2 px
    EXPECT_EQ(SummaryLod::level_for(levels, 4095.0), 0);  // 8192 ns: just over 2 px
    EXPECT_EQ(SummaryLod::level_for(levels, 4096.0), 1);
    EXPECT_EQ(SummaryLod::level_for(levels, 1e9), 2);          // no coarser level
    EXPECT_EQ(SummaryLod::level_for(levels, 1024.0, 1.0), 0);  // 1 px at most
    EXPECT_EQ(SummaryLod::level_for({}, 1e9), -1);
}

}  // namespace
}  // namespace tokenscope::analysis
