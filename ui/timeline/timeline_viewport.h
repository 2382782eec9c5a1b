#pragma once

#include <cstdint>

namespace tokenscope::ui {

// The visible time window of the timeline: which ns is at pixel 0 and how many
// ns one pixel spans. Qt-free arithmetic, so zoom behaviour is tested directly.
class TimelineViewport {
  public:
    double x_of(std::int64_t t_ns) const {
        return (static_cast<double>(t_ns) - origin_ns_) / ns_per_px_;
    }
    double time_at(double x) const { return origin_ns_ + x * ns_per_px_; }
    std::int64_t start_ns() const { return static_cast<std::int64_t>(origin_ns_); }
    std::int64_t end_ns(double width_px) const {
        return static_cast<std::int64_t>(origin_ns_ + width_px * ns_per_px_) + 1;
    }
    double ns_per_px() const { return ns_per_px_; }

    // Shows [t0, t1) across width_px pixels.
    void fit(std::int64_t t0, std::int64_t t1, double width_px);
    // Scales by `factor` (> 1 zooms in) keeping the time under pixel x where it is.
    void zoom_at(double x, double factor);
    // Moves the content right by dx pixels (drag to the right shows earlier time).
    void pan_px(double dx) { origin_ns_ -= dx * ns_per_px_; }

    // Below a tenth of a ns per pixel nothing new appears; beyond the limit
    // the whole run is a dot.
    static constexpr double kMinNsPerPx = 0.1;
    static constexpr double kMaxNsPerPx = 1e12;

  private:
    double origin_ns_ = 0.0;  // double: zoom arithmetic must not round to whole ns
    double ns_per_px_ = 1000.0;
};

}  // namespace tokenscope::ui
