#pragma once

#include <QColor>
#include <QRectF>
#include <cstdint>

#include "timeline_layout.h"
#include "timeline_scene.h"

class QPainter;

namespace tokenscope::ui {

class TimelinePainter;

// The request track of a joined run, drawn above the iteration track: each token a
// span ending at its emission, in its request's sub-row (RequestTrack), coloured by
// its ITL against the run's median so slow tokens stand out; the selected token, its
// iteration and that iteration's kernels outlined. Geometry and hit tests live here
// too, so what is drawn and what is clicked agree.
class TokenTrack {
  public:
    // In plot coordinates (x from the plot's left edge, y in widget pixels); empty when
    // `step` is not a token or the track is not laid out.
    static QRectF rect(const TimelineScene& s, std::size_t step);
    // The token under plot x at content y inside the request row, or -1.
    static int at(const TimelineScene& s, const TimelineLayout::Row& row, int content_y,
                  double plot_x);
    static void paint(QPainter& p, const TimelineScene& s, const TimelineLayout::Row& row,
                      int plot_w);
    // Outlines of the selection, in widget coordinates (over the label column clipped).
    static void paint_selection(QPainter& p, const TimelineScene& s, const TimelinePainter& painter,
                                const QColor& text, int width, int height);
    static QColor color(std::int64_t itl_ns, std::int64_t median_ns);

    static constexpr int kMaxOutlinedKernels = 2000;
};

}  // namespace tokenscope::ui
