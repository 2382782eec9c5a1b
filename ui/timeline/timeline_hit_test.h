#pragma once

#include <QPoint>
#include <cstddef>
#include <optional>

#include "store/timeline_summary.h"
#include "timeline_layout.h"
#include "timeline_scene.h"

namespace tokenscope::ui {

class SummaryTiles;

// What the timeline draws at a widget position: the lane, activity, summary bin, step or
// token there, as the scene and layout place them. TimelineView's hover, clicks and
// tooltips ask here; so do tests, through the view.
class TimelineHitTest {
  public:
    // A bin of a lane painted from its summaries (SummaryTiles) at the scene's zoom.
    struct Bin {
        std::size_t lane = 0;
        int bin_log2 = 0;
        store::SummaryBin bin;
    };

    // `summaries`: the run's summary tiles, nullptr when it paints no lane from bins.
    TimelineHitTest(const TimelineScene& scene, const TimelineLayout& layout,
                    SummaryTiles* summaries);

    // The activity lane drawn at pos (label column or plot), or -1.
    int lane_at(QPoint pos) const;
    // The activity drawn at pos (TimelineScene::activity_index()'s), or
    // TimelineScene::kNone; two pixels of slack.
    std::size_t activity_at(QPoint pos) const;
    // The bin with activities under pos, else the nearest within two pixels, of a lane
    // painted from its bins; only bins already cached count (asks for the rest).
    std::optional<Bin> bin_at(QPoint pos) const;
    // The step (not a token) drawn at pos on the steps row, or -1.
    int step_at(QPoint pos) const;
    // The token drawn at pos on a joined run's request track, or -1.
    int token_at(QPoint pos) const;

  private:
    static double plot_x(QPoint pos);

    const TimelineScene& scene_;
    const TimelineLayout& layout_;
    SummaryTiles* summaries_;
};

}  // namespace tokenscope::ui
