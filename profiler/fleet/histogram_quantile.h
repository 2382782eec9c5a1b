#pragma once

#include <vector>

namespace tokenscope::fleet {

// One cumulative bucket: observations <= le (le may be +Inf).
struct Bucket {
    double le = 0;
    double count = 0;
};

// The q-quantile of cumulative buckets exactly as PromQL's histogram_quantile computes
// it for classic histograms: buckets sorted by le and equal bounds merged; counts made
// monotonic (relative differences under 1e-12 treated as float noise first); rank =
// q x observations, found in the first bucket whose count reaches it, and linear
// interpolation inside that bucket from the previous bound (0 below the lowest
// positive bound). A rank in the +Inf bucket gives the highest finite bound.
// NaN when: no +Inf bucket, fewer than 2 buckets, no observations, q NaN.
// q < 0 gives -Inf and q > 1 +Inf, as in Prometheus. `buckets` is taken by value
// because it is sorted and merged.
double histogram_quantile(double q, std::vector<Bucket> buckets);

}  // namespace tokenscope::fleet
