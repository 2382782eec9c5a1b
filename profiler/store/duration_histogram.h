#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tokenscope::store {

// A mergeable histogram of durations in log-linear buckets (DESIGN.md section 17): each
// power of two [2^e, 2^(e+1)) is cut into 2^kSubBucketBits equal buckets, durations below
// 2^kSubBucketBits ns have a bucket each. A bucket's width is at most 1/64 of its lower
// bound, so a duration read as its bucket's midpoint is off by at most kRelativeError of
// itself, and so is every percentile (docs/metrics.md's linear interpolation between
// closest ranks, taken over the midpoints: a weighted mean of two such values). Count,
// sum, minimum and maximum are exact. Merging two histograms adds their counts, so the
// histograms of blocks of steps or bins of time add up to the run's.
class DurationHistogram {
  public:
    static constexpr int kSubBucketBits = 6;
    static constexpr std::int64_t kSubBuckets = std::int64_t{1} << kSubBucketBits;
    // Largest relative error of a percentile: half a bucket's width over its lower bound.
    static constexpr double kRelativeError = 1.0 / (2 * kSubBuckets);

    // Negative durations (a clock step) count as 0.
    void add(std::int64_t ns, std::uint64_t n = 1);
    void merge(const DurationHistogram& other);

    std::uint64_t count() const { return count_; }
    bool empty() const { return count_ == 0; }
    std::int64_t min() const { return min_; }
    std::int64_t max() const { return max_; }
    // Exact sum (saturating at 2^64 - 1 ns) and mean.
    std::uint64_t sum() const { return sum_; }
    double mean() const;
    // The q-quantile (0 <= q <= 1) by linear interpolation between closest ranks, over
    // the buckets' midpoints, within [min, max]; 0 for an empty histogram.
    double percentile(double q) const;

    // Bucket of a duration, and a bucket's bounds: [low, low + width).
    static int bucket_of(std::int64_t ns);
    static std::int64_t bucket_low(int bucket);
    static std::int64_t bucket_width(int bucket);

    // Varints: the number of non-empty buckets, then per bucket its index delta and count,
    // then min, max and sum. decode() replaces *this; false when malformed (and *this is
    // then empty).
    void encode(std::vector<std::uint8_t>& out) const;
    bool decode(std::span<const std::uint8_t> data);

    bool operator==(const DurationHistogram&) const = default;

  private:
    void add_to_bucket(int bucket, std::uint64_t n);
    double value_at_rank(std::uint64_t rank) const;

    std::uint64_t count_ = 0;
    std::uint64_t sum_ = 0;
    std::int64_t min_ = 0, max_ = 0;
    int first_ = 0;                      // bucket of counts_[0]
    std::vector<std::uint64_t> counts_;  // buckets first_ .. first_ + size - 1
};

}  // namespace tokenscope::store
