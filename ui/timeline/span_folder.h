#pragma once

#include <cstddef>
#include <vector>

#include "timeline_index.h"
#include "timeline_viewport.h"

namespace tokenscope::ui {

// What the timeline draws for one lane: a span (count == 1, the activity at
// `first`) or a fold of `count` neighbouring spans too narrow to tell apart.
struct SpanItem {
    double x0 = 0;
    double x1 = 0;
    int depth = 0;
    std::size_t first = 0;
    std::size_t count = 1;
};

// Level of detail for painting, in pixels: spans narrower than min_px fold into one
// "N events" block by analysis' rule, its one home. Lanes without nesting (GPU
// streams, copy engines) use analysis::TimelineLod; nested lanes (host ranges around
// API calls) analysis::NestedLod, per depth row, visiting the visible activities.
class SpanFolder {
  public:
    static std::vector<SpanItem> collect(const TimelineIndex& index, std::size_t lane,
                                         const TimelineViewport& viewport, double width_px,
                                         int max_depth_rows, double min_px = 3.0);

  private:
    static void collect_flat(const TimelineIndex& index, std::size_t lane,
                             const TimelineViewport& viewport, double width_px, double min_px,
                             std::vector<SpanItem>& out);
    static void collect_nested(const TimelineIndex& index, std::size_t lane,
                               const TimelineViewport& viewport, double width_px, int rows,
                               double min_px, std::vector<SpanItem>& out);
};

}  // namespace tokenscope::ui
