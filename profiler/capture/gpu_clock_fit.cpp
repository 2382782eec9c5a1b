#include "gpu_clock_fit.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace tokenscope::capture {
namespace {

// Midpoint of a bracket without overflowing near INT64_MAX.
std::int64_t midpoint(const ClockPair& p) {
    return p.host_before_ns + (p.host_after_ns - p.host_before_ns) / 2;
}

void validate(std::span<const ClockPair> pairs) {
    if (pairs.empty()) throw std::invalid_argument("clock fit: no clock pairs");
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (pairs[i].host_after_ns < pairs[i].host_before_ns)
            throw std::invalid_argument("clock fit: pair " + std::to_string(i) +
                                        " has host_after < host_before");
    }
}

}  // namespace

GpuClockFit GpuClockFit::from_offset(std::int64_t host_minus_gpu_ns) {
    GpuClockFit f;
    f.host0_ = host_minus_gpu_ns;
    return f;
}

GpuClockFit GpuClockFit::fit(std::span<const ClockPair> pairs, std::int64_t min_slope_span_ns) {
    validate(pairs);
    // Work in offsets from the first pair: differences stay small enough for long
    // double to hold every nanosecond, and centred sums avoid cancellation.
    const std::int64_t g0 = pairs.front().gpu_ns;
    const std::int64_t h0 = midpoint(pairs.front());
    const auto n = static_cast<long double>(pairs.size());
    long double mean_x = 0, mean_y = 0;
    std::int64_t g_min = g0, g_max = g0;
    for (const auto& p : pairs) {
        mean_x += static_cast<long double>(p.gpu_ns - g0);
        mean_y += static_cast<long double>(midpoint(p) - h0);
        g_min = std::min(g_min, p.gpu_ns);
        g_max = std::max(g_max, p.gpu_ns);
    }
    mean_x /= n;
    mean_y /= n;
    long double sxx = 0, sxy = 0;
    for (const auto& p : pairs) {
        const long double dx = static_cast<long double>(p.gpu_ns - g0) - mean_x;
        const long double dy = static_cast<long double>(midpoint(p) - h0) - mean_y;
        sxx += dx * dx;
        sxy += dx * dy;
    }
    GpuClockFit f;
    f.pairs_ = pairs.size();
    f.offset_only_ = g_max - g_min < min_slope_span_ns || sxx <= 0;
    const long double slope = f.offset_only_ ? 1.0L : sxy / sxx;
    f.drift_ = static_cast<double>(slope - 1.0L);
    // The line passes through the centroid; anchor the origin there.
    f.gpu0_ = g0 + static_cast<std::int64_t>(std::llround(mean_x));
    const long double at_origin =
        mean_y + slope * (static_cast<long double>(f.gpu0_ - g0) - mean_x);
    f.host0_ = h0 + static_cast<std::int64_t>(std::llround(at_origin));
    long double sum_sq = 0;
    for (const auto& p : pairs) {
        const auto r = static_cast<double>(midpoint(p) - f.map(p.gpu_ns));
        sum_sq += static_cast<long double>(r) * r;
        f.residual_max_ns_ = std::max(f.residual_max_ns_, std::fabs(r));
    }
    f.residual_rms_ns_ = static_cast<double>(std::sqrt(sum_sq / n));
    return f;
}

}  // namespace tokenscope::capture
