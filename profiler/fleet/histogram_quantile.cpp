#include "histogram_quantile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tokenscope::fleet {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Sums of rates differ in the last bits between buckets that hold the same count.
constexpr double kPrecisionTolerance = 1e-12;

// Buckets with one bound (le="1" and le="1.0" from two exporters) count together.
void merge_equal_bounds(std::vector<Bucket>& b) {
    std::size_t out = 0;
    for (std::size_t i = 1; i < b.size(); ++i) {
        if (b[i].le == b[out].le)
            b[out].count += b[i].count;
        else
            b[++out] = b[i];
    }
    b.resize(out + 1);
}

void make_monotonic(std::vector<Bucket>& b) {
    double prev = b[0].count;
    for (std::size_t i = 1; i < b.size(); ++i) {
        const double delta = std::fabs(b[i].count - prev);
        if (delta == 0) continue;
        if (delta / b[i].count <= kPrecisionTolerance)
            b[i].count = prev;
        else
            prev = b[i].count;
    }
    double high = b[0].count;
    for (auto& x : b) high = x.count = std::max(high, x.count);
}

}  // namespace

double histogram_quantile(double q, std::vector<Bucket> buckets) {
    if (std::isnan(q)) return kNaN;
    if (q < 0) return -kInf;
    if (q > 1) return kInf;
    if (buckets.empty()) return kNaN;
    std::sort(buckets.begin(), buckets.end(),
              [](const Bucket& a, const Bucket& b) { return a.le < b.le; });
    if (buckets.back().le != kInf) return kNaN;
    merge_equal_bounds(buckets);
    make_monotonic(buckets);
    if (buckets.size() < 2) return kNaN;
    const double observations = buckets.back().count;
    if (!(observations > 0)) return kNaN;
    double rank = q * observations;
    // The first bucket below +Inf whose count reaches the rank, else the +Inf bucket.
    std::size_t b = 0;
    while (b < buckets.size() - 1 && buckets[b].count < rank) ++b;
    if (b == buckets.size() - 1) return buckets[b - 1].le;
    if (b == 0 && buckets[0].le <= 0) return buckets[0].le;
    double start = 0, count = buckets[b].count;
    if (b > 0) {
        start = buckets[b - 1].le;
        count -= buckets[b - 1].count;
        rank -= buckets[b - 1].count;
    }
    return start + (buckets[b].le - start) * (rank / count);
}

}  // namespace tokenscope::fleet
