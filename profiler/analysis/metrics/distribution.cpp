#include "distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tokenscope::analysis {
namespace {

struct Rank {
    std::size_t index = 0;  // floor of the virtual index
    double fraction = 0;    // distance to the next rank
};

// numpy.percentile (method "linear"): virtual index = q * (n - 1) with q = p / 100.
Rank rank_of(std::size_t n, double p) {
    double q = std::clamp(p, 0.0, 100.0) / 100.0;
    double virtual_index = q * static_cast<double>(n - 1);
    double lower = std::floor(virtual_index);
    Rank r;
    r.index = std::min(static_cast<std::size_t>(lower), n - 1);
    r.fraction = virtual_index - lower;
    return r;
}

// numpy's _lerp: interpolating from the nearer end keeps the result bit-identical to
// numpy and monotone in the fraction.
double lerp(double a, double b, double t) {
    double diff = b - a;
    return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

// Selects order statistics for non-decreasing ranks: each nth_element only works on the
// part right of the last selected element, which is already partitioned above it.
class Selector {
  public:
    explicit Selector(std::span<double> s) : s_(s) {}

    double at(std::size_t k) {
        if (k >= next_) {
            std::nth_element(s_.begin() + static_cast<std::ptrdiff_t>(next_),
                             s_.begin() + static_cast<std::ptrdiff_t>(k), s_.end());
            next_ = k + 1;
        }
        // k < next_ here means k is the last selected index (ranks never go backwards).
        return s_[k];
    }

    double percentile(double p) {
        Rank r = rank_of(s_.size(), p);
        double lo = at(r.index);
        if (r.fraction == 0.0 || r.index + 1 >= s_.size()) return lo;
        return lerp(lo, at(r.index + 1), r.fraction);
    }

  private:
    std::span<double> s_;
    std::size_t next_ = 0;
};

}  // namespace

Distribution summarize(std::span<double> samples) {
    Distribution d;
    if (samples.empty()) return d;
    d.count = static_cast<std::int64_t>(samples.size());
    double sum = 0;
    d.min = samples[0];
    d.max = samples[0];
    for (double v : samples) {
        sum += v;
        d.min = std::min(d.min, v);
        d.max = std::max(d.max, v);
    }
    d.mean = sum / static_cast<double>(samples.size());
    // Two passes (as numpy does) rather than sum-of-squares, which cancels badly for ns values.
    double squares = 0;
    for (double v : samples) squares += (v - d.mean) * (v - d.mean);
    d.std = std::sqrt(squares / static_cast<double>(samples.size()));
    Selector sel(samples);
    d.p50 = sel.percentile(50);
    d.p90 = sel.percentile(90);
    d.p95 = sel.percentile(95);
    d.p99 = sel.percentile(99);
    return d;
}

double percentile(std::span<double> samples, double p) {
    if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
    return Selector(samples).percentile(p);
}

double percentile_sorted(std::span<const double> sorted, double p) {
    if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
    Rank r = rank_of(sorted.size(), p);
    if (r.fraction == 0.0 || r.index + 1 >= sorted.size()) return sorted[r.index];
    return lerp(sorted[r.index], sorted[r.index + 1], r.fraction);
}

}  // namespace tokenscope::analysis
