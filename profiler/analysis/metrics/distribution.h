#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tokenscope::analysis {

// count, mean, std (population, ddof = 0 as numpy's default), min, P50/P90/P95/P99, max.
// Percentiles interpolate linearly between closest ranks (numpy.percentile's default).
struct Distribution {
    std::int64_t count = 0;
    double mean = 0, std = 0, min = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
};

// Reorders `samples` (selection, not a full sort). Empty input gives count 0.
Distribution summarize(std::span<double> samples);
// Percentile p in [0, 100] of unsorted samples (reordered in place); NaN when empty.
double percentile(std::span<double> samples, double p);
// Percentile of samples already sorted ascending.
double percentile_sorted(std::span<const double> sorted, double p);

// Drops the first `warmup` entries (steps or requests in time order): warm-up exclusion.
template <typename T>
std::span<const T> skip_warmup(const std::vector<T>& v, std::size_t warmup) {
    return warmup >= v.size() ? std::span<const T>() : std::span<const T>(v).subspan(warmup);
}

}  // namespace tokenscope::analysis
