#pragma once

#include <QString>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "timeline_index.h"
#include "timeline_layout.h"
#include "timeline_viewport.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

class SummaryTiles;

// Everything one frame of the timeline depends on: the painter reads it, the view owns it.
struct TimelineScene {
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    const TimelineIndex* index = nullptr;
    // The activities of a run left in its file (ActivityWindow): the stretch read, whose
    // indices `hovered`, `linked`, `found` and `highlighted` are; nullptr: `index`'s own.
    const TimelineIndex* spans = nullptr;
    // Where activities are painted and hit-tested from.
    const TimelineIndex* activity_index() const { return spans != nullptr ? spans : index; }
    const TimelineLayout* layout = nullptr;
    // The run's stored summaries, when it is large enough to paint zoomed out from them
    // (TimelineView::setSummaryThreshold); nullptr: the activities at every zoom.
    SummaryTiles* summaries = nullptr;
    TimelineViewport viewport;
    int scroll_y = 0;
    plots::TimeUnit unit = plots::TimeUnit::Milliseconds;
    std::size_t hovered = kNone;  // activity under the cursor
    std::size_t linked = kNone;   // its API call or kernel, by correlation id
    // All it links to: the kernels of a cudaGraphLaunch (linked is the first of them).
    std::vector<std::size_t> linked_all;
    std::size_t found = kNone;  // current search match
    bool has_selection = false;
    std::int64_t selection_start = 0;
    std::int64_t selection_end = 0;
    // A joined run's selected token and its iteration (indices into run.steps, -1 none)
    // and the kernels of that iteration, outlined (TokenTrack).
    int selected_token = -1;
    int selected_iteration = -1;
    std::vector<std::size_t> highlighted;
    // Said in the plot's top right corner: activities of a run left in its file being read,
    // or why they are not shown (ActivityWindow); empty: nothing.
    QString notice;
    // Drawn across the view when no run is shown: how to open one, or why one did not open.
    QString empty_text;
};

}  // namespace tokenscope::ui
