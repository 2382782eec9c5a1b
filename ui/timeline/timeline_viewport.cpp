#include "timeline_viewport.h"

#include <algorithm>

namespace tokenscope::ui {

void TimelineViewport::fit(std::int64_t t0, std::int64_t t1, double width_px) {
    if (t1 <= t0) t1 = t0 + 1;
    width_px = std::max(width_px, 1.0);
    ns_per_px_ = std::clamp(static_cast<double>(t1 - t0) / width_px, kMinNsPerPx, kMaxNsPerPx);
    origin_ns_ = static_cast<double>(t0);
}

void TimelineViewport::zoom_at(double x, double factor) {
    if (factor <= 0.0) return;
    const double anchor = time_at(x);
    ns_per_px_ = std::clamp(ns_per_px_ / factor, kMinNsPerPx, kMaxNsPerPx);
    origin_ns_ = anchor - x * ns_per_px_;
}

}  // namespace tokenscope::ui
