#include "duration_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "varint.h"

namespace tokenscope::store {
namespace {

constexpr int kMaxBucket =
    (63 - DurationHistogram::kSubBucketBits) * static_cast<int>(DurationHistogram::kSubBuckets) +
    static_cast<int>(DurationHistogram::kSubBuckets) - 1;

std::uint64_t add_saturating(std::uint64_t a, std::uint64_t b) {
    return a > std::numeric_limits<std::uint64_t>::max() - b
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
}

std::uint64_t mul_saturating(std::uint64_t a, std::uint64_t b) {
    return b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b
               ? std::numeric_limits<std::uint64_t>::max()
               : a * b;
}

}  // namespace

int DurationHistogram::bucket_of(std::int64_t ns) {
    const auto v = static_cast<std::uint64_t>(std::max<std::int64_t>(ns, 0));
    if (v < static_cast<std::uint64_t>(kSubBuckets)) return static_cast<int>(v);
    const int shift = static_cast<int>(std::bit_width(v)) - 1 - kSubBucketBits;
    const auto sub = static_cast<int>((v >> shift) - static_cast<std::uint64_t>(kSubBuckets));
    return (shift + 1) * static_cast<int>(kSubBuckets) + sub;
}

std::int64_t DurationHistogram::bucket_low(int bucket) {
    if (bucket < kSubBuckets) return bucket;
    const int shift = bucket / static_cast<int>(kSubBuckets) - 1;
    return (kSubBuckets + bucket % kSubBuckets) << shift;
}

std::int64_t DurationHistogram::bucket_width(int bucket) {
    return bucket < kSubBuckets ? 1 : std::int64_t{1} << (bucket / kSubBuckets - 1);
}

void DurationHistogram::add_to_bucket(int bucket, std::uint64_t n) {
    if (counts_.empty()) {
        first_ = bucket;
        counts_.assign(1, 0);
    } else if (bucket < first_) {
        counts_.insert(counts_.begin(), static_cast<std::size_t>(first_ - bucket), 0);
        first_ = bucket;
    } else if (bucket - first_ >= static_cast<int>(counts_.size())) {
        counts_.resize(static_cast<std::size_t>(bucket - first_) + 1, 0);
    }
    auto& c = counts_[static_cast<std::size_t>(bucket - first_)];
    c = add_saturating(c, n);
}

void DurationHistogram::add(std::int64_t ns, std::uint64_t n) {
    if (n == 0) return;
    ns = std::max<std::int64_t>(ns, 0);
    add_to_bucket(bucket_of(ns), n);
    min_ = count_ == 0 ? ns : std::min(min_, ns);
    max_ = count_ == 0 ? ns : std::max(max_, ns);
    count_ = add_saturating(count_, n);
    sum_ = add_saturating(sum_, mul_saturating(static_cast<std::uint64_t>(ns), n));
}

void DurationHistogram::merge(const DurationHistogram& other) {
    if (other.empty()) return;
    for (std::size_t i = 0; i < other.counts_.size(); ++i)
        if (other.counts_[i] != 0)
            add_to_bucket(other.first_ + static_cast<int>(i), other.counts_[i]);
    min_ = empty() ? other.min_ : std::min(min_, other.min_);
    max_ = empty() ? other.max_ : std::max(max_, other.max_);
    count_ = add_saturating(count_, other.count_);
    sum_ = add_saturating(sum_, other.sum_);
}

double DurationHistogram::mean() const {
    return empty() ? 0.0 : static_cast<double>(sum_) / static_cast<double>(count_);
}

// The duration of the rank-th smallest (0-based): exact at both ends, else its bucket's
// midpoint (the middle of the integers the bucket holds).
double DurationHistogram::value_at_rank(std::uint64_t rank) const {
    if (rank == 0) return static_cast<double>(min_);
    if (rank + 1 >= count_) return static_cast<double>(max_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (rank < seen) {
            const int b = first_ + static_cast<int>(i);
            const double mid =
                static_cast<double>(bucket_low(b)) + static_cast<double>(bucket_width(b) - 1) / 2;
            return std::clamp(mid, static_cast<double>(min_), static_cast<double>(max_));
        }
    }
    return static_cast<double>(max_);
}

double DurationHistogram::percentile(double q) const {
    if (empty()) return 0.0;
    const double h = static_cast<double>(count_ - 1) * std::clamp(q, 0.0, 1.0);
    const auto k = static_cast<std::uint64_t>(std::floor(h));
    const double frac = h - static_cast<double>(k);
    const double lo = value_at_rank(k);
    return frac > 0 ? lo + frac * (value_at_rank(k + 1) - lo) : lo;
}

void DurationHistogram::encode(std::vector<std::uint8_t>& out) const {
    std::uint64_t buckets = 0;
    for (auto c : counts_) buckets += c != 0;
    const std::size_t base = out.size();
    out.resize(base + (2 * buckets + 4) * 10);
    std::uint8_t* p = detail::put_varint(out.data() + base, buckets);
    int prev = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
        if (counts_[i] == 0) continue;
        const int b = first_ + static_cast<int>(i);
        p = detail::put_varint(p, static_cast<std::uint64_t>(b - prev));
        p = detail::put_varint(p, counts_[i]);
        prev = b;
    }
    p = detail::put_varint(p, static_cast<std::uint64_t>(min_));
    p = detail::put_varint(p, static_cast<std::uint64_t>(max_));
    p = detail::put_varint(p, sum_);
    out.resize(static_cast<std::size_t>(p - out.data()));
}

bool DurationHistogram::decode(std::span<const std::uint8_t> data) {
    *this = DurationHistogram{};
    const std::uint8_t* p = data.data();
    const std::uint8_t* end = p + data.size();
    std::uint64_t buckets = 0, min = 0, max = 0, sum = 0;
    if (!detail::get_varint(p, end, buckets) || buckets > data.size() / 2) return false;
    DurationHistogram h;
    std::uint64_t bucket = 0;
    for (std::uint64_t i = 0; i < buckets; ++i) {
        std::uint64_t delta = 0, n = 0;
        if (!detail::get_varint(p, end, delta) || !detail::get_varint(p, end, n) || n == 0 ||
            (i > 0 && delta == 0) || delta > kMaxBucket || bucket + delta > kMaxBucket)
            return false;
        bucket += delta;
        h.add_to_bucket(static_cast<int>(bucket), n);
        h.count_ = add_saturating(h.count_, n);
    }
    if (!detail::get_varint(p, end, min) || !detail::get_varint(p, end, max) ||
        !detail::get_varint(p, end, sum) || p != end)
        return false;
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (min > kMax || max > kMax || min > max) return false;
    h.min_ = static_cast<std::int64_t>(min);
    h.max_ = static_cast<std::int64_t>(max);
    h.sum_ = sum;
    // The extremes must lie in the first and last buckets.
    if (buckets > 0 && (bucket_of(h.min_) != h.first_ ||
                        bucket_of(h.max_) != h.first_ + static_cast<int>(h.counts_.size()) - 1))
        return false;
    if (buckets == 0 && (min != 0 || max != 0 || sum != 0)) return false;
    *this = std::move(h);
    return true;
}

}  // namespace tokenscope::store
