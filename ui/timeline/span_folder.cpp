#include "span_folder.h"

#include <algorithm>

#include "analysis/timeline_lod.h"

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

void SpanFolder::collect_nested(const TimelineIndex& index, std::size_t lane,
                                const TimelineViewport& vp, double width_px, int rows,
                                double min_px, std::vector<SpanItem>& out) {
    const auto& acts = index.run().activities;
    std::vector<SpanItem> folds(static_cast<std::size_t>(rows), SpanItem{0, 0, 0, 0, 0});
    auto flush = [&](SpanItem& f) {
        if (f.count > 0) out.push_back(f);
        f.count = 0;
    };
    index.for_each_visible(lane, vp.start_ns(), vp.end_ns(width_px), [&](std::size_t i, int depth) {
        depth = std::min(depth, rows - 1);  // deeper nesting shares the last row
        const double x0 = vp.x_of(acts[i].start_ns);
        const double x1 = vp.x_of(acts[i].end_ns);
        SpanItem& f = folds[static_cast<std::size_t>(depth)];
        if (x1 - x0 >= min_px) {
            flush(f);
            out.push_back(SpanItem{x0, x1, depth, i, 1});
        } else if (f.count > 0 && x0 <= f.x1 + min_px) {
            f.x1 = std::max(f.x1, x1);
            ++f.count;
        } else {
            flush(f);
            f = SpanItem{x0, x1, depth, i, 1};
        }
    });
    for (auto& f : folds) flush(f);
}

}  // namespace tokenscope::ui
