#pragma once

#include <vector>

#include "store/timeline_summary.h"

namespace tokenscope::analysis {

// Timeline level of detail from a lane's stored summaries (DESIGN.md section 17), the
// zoomed-out side of TimelineLod: a view wide enough paints the coarsest summary level
// whose bins are at most max_px wide at its scale, so it costs its pixels and reads no
// activity; a narrower view paints activities (TimelineLod, NestedLod).
class SummaryLod {
  public:
    // The level (index into `levels`, finest first) to paint at ns_per_px; -1 when even
    // the finest bins are wider than max_px (draw activities) or there are no levels.
    static int level_for(const std::vector<store::SummaryLevel>& levels, double ns_per_px,
                         double max_px = 2.0);
};

}  // namespace tokenscope::analysis
