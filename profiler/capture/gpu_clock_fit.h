#pragma once

#include <cstdint>
#include <span>

namespace tokenscope::capture {

// One reading of the GPU-side (CUPTI) clock bracketed by two host clock readings.
struct ClockPair {
    std::int64_t host_before_ns = 0;
    std::int64_t gpu_ns = 0;
    std::int64_t host_after_ns = 0;
};

// The GPU (CUPTI) clock mapped onto the host clock: a linear map host = a + b * gpu,
// fitted by least squares on the midpoints of bracketed pairs. Both clocks run near
// 1e18 ns, where a double has ~100 ns steps, so the fit is kept relative to an origin
// pair (host0, gpu0) and to the drift b - 1:
// map(g) = host0 + (g - gpu0) + drift * (g - gpu0), exact to the nanosecond.
// (Not analysis::ClockOffsetFit, the client/server join's offset between two runs.)
class GpuClockFit {
  public:
    // Below this spread of GPU readings a slope is noise (bracket jitter / span), so
    // the fit falls back to a pure offset (slope 1).
    static constexpr std::int64_t kMinSlopeSpanNs = 50'000'000;

    GpuClockFit() = default;  // identity
    // Throws std::invalid_argument for no pairs or a pair whose host_after < host_before.
    static GpuClockFit fit(std::span<const ClockPair> pairs,
                           std::int64_t min_slope_span_ns = kMinSlopeSpanNs);
    // Pure offset: GPU time shifted by a constant (no drift).
    static GpuClockFit from_offset(std::int64_t host_minus_gpu_ns);

    std::int64_t map(std::int64_t gpu_ns) const {
        const std::int64_t d = gpu_ns - gpu0_;
        return host0_ + d + static_cast<std::int64_t>(drift_ * static_cast<double>(d));
    }

    double slope() const { return 1.0 + drift_; }
    double drift() const { return drift_; }  // b - 1 (20 ppm = 2e-5)
    bool is_offset_only() const { return offset_only_; }
    double residual_rms_ns() const { return residual_rms_ns_; }
    double residual_max_ns() const { return residual_max_ns_; }  // largest |midpoint - map|
    std::size_t pair_count() const { return pairs_; }

  private:
    std::int64_t host0_ = 0;
    std::int64_t gpu0_ = 0;
    double drift_ = 0.0;
    bool offset_only_ = true;
    double residual_rms_ns_ = 0.0;
    double residual_max_ns_ = 0.0;
    std::size_t pairs_ = 0;
};

}  // namespace tokenscope::capture
