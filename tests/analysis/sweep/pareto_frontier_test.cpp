#include "analysis/sweep/pareto_frontier.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tokenscope::analysis {
namespace {

using V = std::vector<std::size_t>;

TEST(ParetoFrontier, KeepsOnlyUndominatedPoints) {
    // (x, y): more x and less y is better.
    //  0:(1,10) 1:(2,12) 2:(3,11) 3:(2,20) 4:(4,30) 5:(1,15)
    // 3 is dominated by 1 (same x, less y); 5 by 0; 1 by 2 (more x, less y).
    std::vector<double> x = {1, 2, 3, 2, 4, 1}, y = {10, 12, 11, 20, 30, 15};
    EXPECT_EQ(pareto_frontier(x, y), (V{0, 2, 4}));
}

TEST(ParetoFrontier, TiesStayTogether) {
    // 0 and 1 are the same point: neither dominates the other, both stay. 2 has the
    // same y as 3 with less x: dominated. 4 has the same x as 3 with more y: dominated.
    std::vector<double> x = {5, 5, 2, 3, 3}, y = {8, 8, 4, 4, 6};
    EXPECT_EQ(pareto_frontier(x, y), (V{3, 0, 1}));
}

TEST(ParetoFrontier, NanIsNeverOnTheFrontier) {
    std::vector<double> x = {1, NAN, 2}, y = {5, 1, NAN};
    EXPECT_EQ(pareto_frontier(x, y), (V{0}));
    EXPECT_TRUE(pareto_frontier({}, {}).empty());
}

}  // namespace
}  // namespace tokenscope::analysis
