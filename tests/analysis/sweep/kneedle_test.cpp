#include "analysis/sweep/kneedle.h"

#include <gtest/gtest.h>

namespace tokenscope::analysis {
namespace {

TEST(Kneedle, FindsTheBendOfAPiecewiseLinearCurve) {
    // Flat with slope 0.1 up to x = 6, then slope 5: the knee is the sample at x = 6.
    std::vector<double> x, y;
    for (int i = 0; i <= 10; ++i) {
        x.push_back(i);
        y.push_back(i <= 6 ? 0.1 * i : 0.6 + 5.0 * (i - 6));
    }
    auto knee = kneedle(x, y);
    ASSERT_TRUE(knee.has_value());
    EXPECT_EQ(*knee, 6u);
}

TEST(Kneedle, FindsAnEarlyKneeOnUnevenSpacing) {
    std::vector<double> x = {1, 2, 3, 5, 8, 13, 21}, y = {1, 2, 3, 13, 28, 53, 93};
    // Slope 1 up to x = 3, then slope 5: the bend is at x = 3, index 2.
    auto knee = kneedle(x, y);
    ASSERT_TRUE(knee.has_value());
    EXPECT_EQ(*knee, 2u);
}

TEST(Kneedle, NoKneeOnAStraightLineOrTooFewSamples) {
    EXPECT_FALSE(kneedle({0, 1, 2, 3, 4}, {3, 5, 7, 9, 11}).has_value());
    EXPECT_FALSE(kneedle({0, 1}, {0, 5}).has_value());
    // Concave (bends the other way): everything lies above the chord.
    EXPECT_FALSE(kneedle({0, 1, 2, 3}, {0, 5, 6, 6.5}).has_value());
}

}  // namespace
}  // namespace tokenscope::analysis
