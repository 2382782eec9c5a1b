#include "span_folder.h"

#include <algorithm>

#include "analysis/timeline/nested_lod.h"
#include "analysis/timeline/timeline_lod.h"

namespace tokenscope::ui {

std::vector<SpanItem> SpanFolder::collect(const TimelineIndex& index, std::size_t lane,
                                          const TimelineViewport& viewport, double width_px,
                                          int max_depth_rows, double min_px) {
    std::vector<SpanItem> out;
    if (index.max_depth(lane) == 0)
        collect_flat(index, lane, viewport, width_px, min_px, out);
    else
        collect_nested(index, lane, viewport, width_px, std::max(1, max_depth_rows), min_px, out);
    return out;
}

// Lanes without nesting use analysis' level of detail, which skips folded runs
// by binary search: a zoomed-out lane costs its pixels, not its activities.
void SpanFolder::collect_flat(const TimelineIndex& index, std::size_t lane,
                              const TimelineViewport& vp, double width_px, double min_px,
                              std::vector<SpanItem>& out) {
    const auto* lod = index.lod(lane);
    if (lod == nullptr) return;
    const std::size_t base = index.lane_activities(lane).begin;
    for (const auto& it : lod->items(vp.start_ns(), vp.end_ns(width_px), vp.ns_per_px(), min_px))
        out.push_back(
            SpanItem{vp.x_of(it.start_ns), vp.x_of(it.end_ns), 0, base + it.first, it.count});
}

// Nested lanes fold per depth row by analysis' NestedLod, the flat lanes' rule.
void SpanFolder::collect_nested(const TimelineIndex& index, std::size_t lane,
                                const TimelineViewport& vp, double width_px, int rows,
                                double min_px, std::vector<SpanItem>& out) {
    const auto& acts = index.run().activities;
    analysis::NestedLod lod(vp.ns_per_px(), rows, min_px);
    index.for_each_visible(lane, vp.start_ns(), vp.end_ns(width_px), [&](std::size_t i, int depth) {
        lod.add(i, acts[i].start_ns, acts[i].end_ns, depth);
    });
    for (const auto& it : lod.finish())
        out.push_back(
            SpanItem{vp.x_of(it.start_ns), vp.x_of(it.end_ns), it.depth, it.first, it.count});
}

}  // namespace tokenscope::ui
