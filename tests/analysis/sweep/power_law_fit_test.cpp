#include "analysis/sweep/power_law_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace tokenscope::analysis {
namespace {

TEST(PowerLawFit, RecoversKnownParametersFromNoisyPoints) {
    const double a = 3.5, b = 1.7, c = 40.0;
    std::mt19937 gen(7);
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> x, y;
    for (int i = 1; i <= 30; ++i) {
        const double xi = 0.5 * i;
        x.push_back(xi);
        y.push_back(a * std::pow(xi, b) + c + noise(gen));
    }
    const PowerLawFit fit = fit_power_law(x, y);
    ASSERT_TRUE(fit.ok);
    EXPECT_NEAR(fit.a, a, 0.15 * a);
    EXPECT_NEAR(fit.b, b, 0.05);
    EXPECT_NEAR(fit.c, c, 2.0);
    EXPECT_GT(fit.r2, 0.999);
}

TEST(PowerLawFit, ExactDataGivesExactParameters) {
    std::vector<double> x = {1, 2, 4, 8, 16, 32}, y;
    for (double v : x) y.push_back(0.25 * std::pow(v, 2.0) + 5.0);
    const PowerLawFit fit = fit_power_law(x, y);
    ASSERT_TRUE(fit.ok);
    EXPECT_NEAR(fit.a, 0.25, 1e-6);
    EXPECT_NEAR(fit.b, 2.0, 1e-6);
    EXPECT_NEAR(fit.c, 5.0, 1e-4);
    EXPECT_NEAR(fit.r2, 1.0, 1e-12);
}

TEST(PowerLawFit, RSquaredMatchesAHandComputation) {
    // y = 1, 2, 3, 4 (mean 2.5, SS_tot = 2.25 + 0.25 + 0.25 + 2.25 = 5);
    // predictions 1, 2, 2, 5: SS_res = 0 + 0 + 1 + 1 = 2; R^2 = 1 - 2/5 = 0.6.
    EXPECT_DOUBLE_EQ(r_squared({1, 2, 3, 4}, {1, 2, 2, 5}), 0.6);
    EXPECT_TRUE(std::isnan(r_squared({2, 2, 2}, {1, 2, 3})));
}

TEST(PowerLawFit, RefusesTooFewPointsAndNonPositiveX) {
    EXPECT_FALSE(fit_power_law({1, 2, 3}, {1, 4, 9}).ok);
    EXPECT_FALSE(fit_power_law({0, 1, 2, 3}, {1, 2, 5, 10}).ok);
    EXPECT_FALSE(fit_power_law({1, 2, 3, 4}, {7, 7, 7, 7}).ok);
}

}  // namespace
}  // namespace tokenscope::analysis
