// Log-linear duration histograms: bucket bounds worked out by hand, percentiles within
// the stated relative error of the exact ones (numpy's linear interpolation, computed
// here on the sorted samples), merging as adding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "store/duration_histogram.h"

namespace tokenscope::store {
namespace {

using H = DurationHistogram;

// numpy.percentile's default: linear interpolation between closest ranks.
double exact_percentile(std::vector<std::int64_t> v, double q) {
    std::sort(v.begin(), v.end());
    const double h = static_cast<double>(v.size() - 1) * q;
    const auto k = static_cast<std::size_t>(std::floor(h));
    const double lo = static_cast<double>(v[k]);
    return k + 1 < v.size()
               ? lo + (h - static_cast<double>(k)) * (static_cast<double>(v[k + 1]) - lo)
               : lo;
}

TEST(DurationHistogram, BucketsByHand) {
    // Below 64 ns a bucket per nanosecond.
    EXPECT_EQ(H::bucket_of(0), 0);
    EXPECT_EQ(H::bucket_of(63), 63);
    EXPECT_EQ(H::bucket_of(-5), 0);
    // [64, 128): 64 buckets of 1 ns (indices 64..127); [128, 256): 64 of 2 ns.
    EXPECT_EQ(H::bucket_of(64), 64);
    EXPECT_EQ(H::bucket_of(127), 127);
    EXPECT_EQ(H::bucket_of(128), 128);
    EXPECT_EQ(H::bucket_of(129), 128);
    EXPECT_EQ(H::bucket_of(130), 129);
    EXPECT_EQ(H::bucket_low(129), 130);
    EXPECT_EQ(H::bucket_width(129), 2);
    // 1 ms = 1'000'000 ns: 2^19 <= it < 2^20, buckets of 2^13 = 8192 ns; 1'000'000 / 8192 =
    // 122.07 -> sub-bucket 122 - 64 = 58, index (13 + 1) * 64 + 58 = 954, low 122 * 8192.
    EXPECT_EQ(H::bucket_of(1'000'000), 954);
    EXPECT_EQ(H::bucket_low(954), 999'424);
    EXPECT_EQ(H::bucket_width(954), 8192);
    EXPECT_EQ(H::bucket_of(std::numeric_limits<std::int64_t>::max()), 57 * 64 + 63);
    // Every bucket holds exactly the durations that map to it, and is at most 1/64 of its low.
    for (int b = 1; b <= 57 * 64 + 63; ++b) {
        ASSERT_EQ(H::bucket_low(b), H::bucket_low(b - 1) + H::bucket_width(b - 1)) << b;
        ASSERT_EQ(H::bucket_of(H::bucket_low(b)), b);
        ASSERT_EQ(H::bucket_of(H::bucket_low(b) - 1), b - 1);
        if (b >= 64) {
            ASSERT_LE(H::bucket_width(b) * 64, H::bucket_low(b));
        }
    }
}

TEST(DurationHistogram, PercentilesWithinTheStatedError) {
    EXPECT_DOUBLE_EQ(H::kRelativeError, 1.0 / 128);  // "±0.8 %"
    std::mt19937_64 rng(3);
    // Kernel-like durations: lognormal around 20 us, a tail to milliseconds, a few tiny.
    std::lognormal_distribution<double> dist(std::log(20'000.0), 1.2);
    for (int trial = 0; trial < 20; ++trial) {
        std::vector<std::int64_t> v;
        const int n = 1 + static_cast<int>(rng() % 5000);
        for (int i = 0; i < n; ++i)
            v.push_back(i % 97 == 0 ? static_cast<std::int64_t>(rng() % 64)
                                    : static_cast<std::int64_t>(dist(rng)));
        H h;
        for (auto x : v) h.add(x);
        ASSERT_EQ(h.count(), v.size());
        EXPECT_EQ(h.min(), *std::min_element(v.begin(), v.end()));
        EXPECT_EQ(h.max(), *std::max_element(v.begin(), v.end()));
        std::int64_t sum = 0;
        for (auto x : v) sum += x;
        EXPECT_EQ(h.sum(), static_cast<std::uint64_t>(sum));
        for (double q : {0.0, 0.01, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0}) {
            const double want = exact_percentile(v, q);
            EXPECT_LE(std::abs(h.percentile(q) - want), want * H::kRelativeError + 1e-9)
                << "n " << n << " q " << q;
        }
        EXPECT_EQ(h.percentile(0), static_cast<double>(h.min()));
        EXPECT_EQ(h.percentile(1), static_cast<double>(h.max()));
    }
    EXPECT_EQ(H{}.percentile(0.5), 0.0);
}

TEST(DurationHistogram, MergingIsAddingTheSamples) {
    std::mt19937_64 rng(5);
    H all, a, b;
    for (int i = 0; i < 3000; ++i) {
        const auto x = static_cast<std::int64_t>(rng() % (i < 1500 ? 5'000 : 5'000'000));
        all.add(x);
        (i % 3 == 0 ? a : b).add(x);
    }
    H merged = a;
    merged.merge(b);
    EXPECT_EQ(merged, all);
    H other_way = b;
    other_way.merge(a);
    EXPECT_EQ(other_way, all);
    H empty;
    merged.merge(empty);
    EXPECT_EQ(merged, all);
    empty.merge(all);
    EXPECT_EQ(empty, all);
    H counted;
    counted.add(1000, 5);
    counted.add(-3);  // a clock step: 0
    EXPECT_EQ(counted.count(), 6u);
    EXPECT_EQ(counted.min(), 0);
    EXPECT_EQ(counted.sum(), 5000u);
}

TEST(DurationHistogram, EncodesAndRefusesMalformedBytes) {
    H h;
    for (std::int64_t x : {5, 70, 70, 1'000'000, 1'003'000, 77'000'000}) h.add(x);
    std::vector<std::uint8_t> blob;
    h.encode(blob);
    H back;
    ASSERT_TRUE(back.decode(blob));
    EXPECT_EQ(back, h);
    std::vector<std::uint8_t> empty_blob;
    H{}.encode(empty_blob);
    ASSERT_TRUE(back.decode(empty_blob));
    EXPECT_TRUE(back.empty());
    std::vector<std::uint8_t> cut(blob.begin(), blob.end() - 1);
    EXPECT_FALSE(back.decode(cut));
    EXPECT_TRUE(back.empty());
    std::vector<std::uint8_t> longer = blob;
    longer.push_back(0);
    EXPECT_FALSE(back.decode(longer));
    H probe;
    probe.add(5);
    std::vector<std::uint8_t> one;
    probe.encode(one);  // 1 bucket: delta 5, count 1; min 5, max 5, sum 5
    ASSERT_EQ(one, (std::vector<std::uint8_t>{1, 5, 1, 5, 5, 5}));
    one[3] = one[4] = 6;  // min and max 6: not in bucket 5, where the count is
    EXPECT_FALSE(back.decode(one));
    EXPECT_FALSE(back.decode(std::vector<std::uint8_t>{2, 5, 1, 0, 1, 5, 5, 5}));  // bucket twice
    EXPECT_FALSE(back.decode(std::vector<std::uint8_t>{1, 5, 0, 5, 5, 0}));        // empty bucket
}

}  // namespace
}  // namespace tokenscope::store
