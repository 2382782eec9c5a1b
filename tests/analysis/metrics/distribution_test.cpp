#include "analysis/metrics/distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace tokenscope::analysis;

TEST(Distribution, EmptyGivesCountZeroAndNanPercentile) {
    std::vector<double> v;
    Distribution d = summarize(v);
    EXPECT_EQ(d.count, 0);
    EXPECT_EQ(d.p95, 0.0);
    EXPECT_TRUE(std::isnan(percentile(v, 50)));
    EXPECT_TRUE(std::isnan(percentile_sorted(v, 50)));
}

TEST(Distribution, SingleValueIsEveryStatistic) {
    std::vector<double> v = {42.0};
    Distribution d = summarize(v);
    EXPECT_EQ(d.count, 1);
    for (double x : {d.mean, d.min, d.p50, d.p90, d.p95, d.p99, d.max}) EXPECT_EQ(x, 42.0);
    EXPECT_EQ(d.std, 0.0);
}

TEST(Distribution, TwoValuesInterpolate) {
    // n = 2: rank = q * 1, so Pp = 10 + (p / 100) * (20 - 10).
    std::vector<double> v = {20.0, 10.0};
    Distribution d = summarize(v);
    EXPECT_DOUBLE_EQ(d.p50, 15.0);
    EXPECT_DOUBLE_EQ(d.p90, 19.0);
    EXPECT_DOUBLE_EQ(d.p95, 19.5);
    EXPECT_DOUBLE_EQ(d.p99, 19.9);
    EXPECT_DOUBLE_EQ(d.mean, 15.0);
    EXPECT_DOUBLE_EQ(d.std, 5.0);  // population: sqrt((25 + 25) / 2)
}

TEST(Distribution, TiesAreHandled) {
    // sorted 1 5 5 5: P50 rank 1.5 -> 5; P25 rank 0.75 -> 1 + 0.75 * 4 = 4.
    std::vector<double> v = {5, 1, 5, 5};
    EXPECT_DOUBLE_EQ(percentile(v, 50), 5.0);
    std::vector<double> w = {5, 5, 1, 5};
    EXPECT_DOUBLE_EQ(percentile(w, 25), 4.0);
    std::vector<double> same(7, 3.0);
    Distribution d = summarize(same);
    EXPECT_EQ(d.p99, 3.0);
    EXPECT_EQ(d.std, 0.0);
}

TEST(Distribution, KnownTenValuesMatchNumpyByHand) {
    // sorted: 1 2 3 5 7 9 11 13 15 20 (indices 0..9), rank = q * 9.
    // P50: 4.5  -> 7 + 0.5 * (9 - 7)    = 8
    // P90: 8.1  -> 15 + 0.1 * (20 - 15) = 15.5
    // P95: 8.55 -> 15 + 0.55 * 5        = 17.75
    // P99: 8.91 -> 15 + 0.91 * 5        = 19.55
    // mean = 86 / 10 = 8.6; squared deviations sum to 344.4, so std = sqrt(34.44).
    std::vector<double> v = {7, 1, 9, 3, 15, 5, 11, 13, 2, 20};
    Distribution d = summarize(v);
    EXPECT_EQ(d.count, 10);
    EXPECT_DOUBLE_EQ(d.p50, 8.0);
    EXPECT_NEAR(d.p90, 15.5, 1e-12);
    EXPECT_NEAR(d.p95, 17.75, 1e-12);
    EXPECT_NEAR(d.p99, 19.55, 1e-12);
    EXPECT_DOUBLE_EQ(d.mean, 8.6);
    EXPECT_NEAR(d.std, std::sqrt(34.44), 1e-12);
    EXPECT_EQ(d.min, 1.0);
    EXPECT_EQ(d.max, 20.0);

    std::vector<double> u = {7, 1, 9, 3, 15, 5, 11, 13, 2, 20};
    EXPECT_DOUBLE_EQ(percentile(u, 25), 3.5);  // rank 2.25 -> 3 + 0.25 * 2
    EXPECT_EQ(percentile(u, 0), 1.0);
    EXPECT_EQ(percentile(u, 100), 20.0);
    std::vector<double> sorted = {1, 2, 3, 5, 7, 9, 11, 13, 15, 20};
    EXPECT_NEAR(percentile_sorted(sorted, 95), 17.75, 1e-12);
}

TEST(Distribution, SelectionAgreesWithFullSortOnRandomData) {
    std::mt19937_64 rng(7);
    for (std::size_t n : {3u, 17u, 100u, 1001u}) {
        std::vector<double> v(n);
        std::uniform_int_distribution<int> pick(0, 50);  // many ties on purpose
        for (auto& x : v) x = pick(rng);
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        Distribution d = summarize(v);
        EXPECT_EQ(d.p50, percentile_sorted(sorted, 50)) << n;
        EXPECT_EQ(d.p90, percentile_sorted(sorted, 90)) << n;
        EXPECT_EQ(d.p95, percentile_sorted(sorted, 95)) << n;
        EXPECT_EQ(d.p99, percentile_sorted(sorted, 99)) << n;
    }
}

TEST(Distribution, SkipWarmupDropsTheFirstEntries) {
    std::vector<int> v = {1, 2, 3, 4, 5};
    auto rest = skip_warmup(v, 2);
    ASSERT_EQ(rest.size(), 3u);
    EXPECT_EQ(rest[0], 3);
    EXPECT_TRUE(skip_warmup(v, 5).empty());
    EXPECT_TRUE(skip_warmup(v, 10).empty());
    EXPECT_EQ(skip_warmup(v, 0).size(), 5u);
}
