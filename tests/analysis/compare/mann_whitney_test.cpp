#include "analysis/compare/mann_whitney.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace tokenscope::analysis {
namespace {

// n1 = n2 = 3: the null distribution of U counts the partitions of u into at most
// 3 parts of size at most 3, out of C(6,3) = 20 arrangements:
// u = 0:1, 1:1, 2:2, 3:3, 4:3, 5:3, 6:3, 7:2, 8:1, 9:1.
TEST(MannWhitney, SmallExactByHand) {
    std::vector<double> a = {1, 2, 4}, b = {3, 5, 6};
    auto r = mann_whitney_u(a, b);
    EXPECT_TRUE(r.exact);
    EXPECT_DOUBLE_EQ(r.u1, 1.0);  // only 4 > 3
    EXPECT_DOUBLE_EQ(r.u2, 8.0);
    // P(U <= 1) = (1 + 1) / 20; two-sided doubles it.
    EXPECT_NEAR(r.p_value, 0.2, 1e-12);
    EXPECT_NEAR(mann_whitney_exact_cdf(3, 3, 4), 10.0 / 20.0, 1e-12);
}

// Standard Mann-Whitney critical-value tables (e.g. Siegel & Castellan, Nonparametric
// Statistics, Table J; Mann & Whitney 1947) give U = 2 as the critical value for
// n1 = n2 = 5 at two-sided alpha = 0.05: P(U <= 2) = 4/252 (u = 0:1, 1:1, 2:2), and
// U = 3 is not significant: P(U <= 3) = 7/252, doubled 0.0556 > 0.05.
TEST(MannWhitney, TextbookCriticalValueFiveFive) {
    EXPECT_NEAR(mann_whitney_exact_cdf(5, 5, 2), 4.0 / 252.0, 1e-12);
    EXPECT_NEAR(mann_whitney_exact_cdf(5, 5, 3), 7.0 / 252.0, 1e-12);
    std::vector<double> a = {1, 2, 3, 4, 7}, b = {5, 6, 8, 9, 10};
    auto r = mann_whitney_u(a, b);
    EXPECT_DOUBLE_EQ(r.u1, 2.0);  // 7 > 5 and 7 > 6
    EXPECT_NEAR(r.p_value, 8.0 / 252.0, 1e-12);
    EXPECT_LT(r.p_value, 0.05);
    // Swapping the samples swaps U1 and U2 and keeps the two-sided p.
    auto s = mann_whitney_u(b, a);
    EXPECT_DOUBLE_EQ(s.u1, 23.0);
    EXPECT_NEAR(s.p_value, r.p_value, 1e-12);
}

// Ties force the normal approximation. Pooled 1,2,2,2,3,3,3,4: the 2s share rank 3,
// the 3s rank 6, so R1 = 1 + 3 + 3 + 6 = 13 and U1 = 13 - 4*5/2 = 3.
// mu = 8; var = 16/12 * (9 - (24 + 24) / 56) = 10.857142857; z = (|3 - 8| - 0.5) /
// sqrt(var) = 1.36569820; p = erfc(z / sqrt 2) = 0.17203371.
TEST(MannWhitney, TiesUseAverageRanksAndCorrections) {
    std::vector<double> a = {1, 2, 2, 3}, b = {2, 3, 3, 4};
    auto r = mann_whitney_u(a, b);
    EXPECT_FALSE(r.exact);
    EXPECT_DOUBLE_EQ(r.u1, 3.0);
    EXPECT_NEAR(r.z, 1.36569820, 1e-7);
    EXPECT_NEAR(r.p_value, 0.17203371, 1e-7);
}

// 30 vs 30 without overlap: U1 = 0, mu = 450, var = 900/12 * 61 = 4575,
// z = 449.5 / sqrt(4575) = 6.6455992, p = erfc(z / sqrt 2) = 3.0199e-11.
TEST(MannWhitney, LargeSeparatedByHand) {
    std::vector<double> a, b;
    for (int i = 0; i < 30; ++i) a.push_back(i), b.push_back(30 + i);
    auto r = mann_whitney_u(a, b);
    EXPECT_FALSE(r.exact);
    EXPECT_DOUBLE_EQ(r.u1, 0.0);
    EXPECT_NEAR(r.z, 6.6455992, 1e-6);
    EXPECT_NEAR(r.p_value / 3.0199e-11, 1.0, 1e-3);
}

// Deterministic "normal-ish" samples: sums of three sawtooth sequences.
std::vector<double> bumpy(int n, double shift) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(shift + (i * 37 % 101) + (i * 53 % 97) + (i * 11 % 89));
    return v;
}

TEST(MannWhitney, ShiftedLargeSamplesAreSignificant) {
    auto a = bumpy(300, 0), b = bumpy(300, 30);  // shift ~ 0.6 standard deviations
    auto r = mann_whitney_u(a, b);
    EXPECT_LT(r.p_value, 0.01);
    EXPECT_LT(r.u1, r.u2);  // a is the smaller one
}

TEST(MannWhitney, IdenticalSamplesGiveOne) {
    auto a = bumpy(300, 0);
    auto r = mann_whitney_u(a, a);
    EXPECT_DOUBLE_EQ(r.u1, 300.0 * 300.0 / 2.0);
    EXPECT_DOUBLE_EQ(r.p_value, 1.0);
    std::vector<double> flat(10, 5.0);  // every value tied: variance 0
    EXPECT_DOUBLE_EQ(mann_whitney_u(flat, flat).p_value, 1.0);
}

TEST(MannWhitney, EmptySampleGivesNaN) {
    std::vector<double> a = {1, 2}, none;
    auto r = mann_whitney_u(a, none);
    EXPECT_TRUE(std::isnan(r.p_value));
    EXPECT_FALSE(r.p_value < 0.01);
}

}  // namespace
}  // namespace tokenscope::analysis
