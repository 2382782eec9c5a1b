#include "timeline_hit_test.h"

#include <algorithm>

#include "analysis/timeline/summary_lod.h"
#include "summary_tiles.h"
#include "token_track.h"

namespace tokenscope::ui {
namespace {
using Layout = TimelineLayout;
}  // namespace

TimelineHitTest::TimelineHitTest(const TimelineScene& scene, const TimelineLayout& layout,
                                 SummaryTiles* summaries)
    : scene_(scene), layout_(layout), summaries_(summaries) {}

double TimelineHitTest::plot_x(QPoint pos) {
    return pos.x() - Layout::kLabelWidth;
}

int TimelineHitTest::lane_at(QPoint pos) const {
    if (scene_.index == nullptr || pos.y() < Layout::kAxisHeight) return -1;
    const auto* row = layout_.row_at(pos.y() - Layout::kAxisHeight + scene_.scroll_y);
    return row != nullptr && row->kind == Layout::RowKind::Activities ? row->lane : -1;
}

std::size_t TimelineHitTest::activity_at(QPoint pos) const {
    if (scene_.index == nullptr || pos.x() < Layout::kLabelWidth || pos.y() < Layout::kAxisHeight)
        return TimelineScene::kNone;
    const int content_y = pos.y() - Layout::kAxisHeight + scene_.scroll_y;
    const auto* row = layout_.row_at(content_y);
    if (row == nullptr || row->kind != Layout::RowKind::Activities) return TimelineScene::kNone;
    const int depth = (content_y - row->y) / Layout::kSpanHeight;
    const double x = plot_x(pos);
    // Two pixels of slack so a span one pixel wide can still be hovered.
    const auto t0 = static_cast<std::int64_t>(scene_.viewport.time_at(x - 2));
    const auto t1 = static_cast<std::int64_t>(scene_.viewport.time_at(x + 2)) + 1;
    const auto t = scene_.viewport.time_at(x);
    std::size_t best = TimelineScene::kNone;
    double best_dist = 1e300;
    scene_.activity_index()->for_each_visible(
        static_cast<std::size_t>(row->lane), t0, t1, [&](std::size_t i, int d) {
            if (std::min(d, row->depth_rows - 1) != depth) return;
            const auto& a = scene_.activity_index()->run().activities[i];
            const double dist =
                t < a.start_ns ? a.start_ns - t : (t > a.end_ns ? t - a.end_ns : 0.0);
            if (dist < best_dist) best_dist = dist, best = i;
        });
    return best;
}

std::optional<TimelineHitTest::Bin> TimelineHitTest::bin_at(QPoint pos) const {
    if (summaries_ == nullptr || scene_.index == nullptr || pos.x() < Layout::kLabelWidth ||
        pos.y() < Layout::kAxisHeight)
        return std::nullopt;
    const auto* row = layout_.row_at(pos.y() - Layout::kAxisHeight + scene_.scroll_y);
    if (row == nullptr || row->kind != Layout::RowKind::Activities) return std::nullopt;
    const auto lane = static_cast<std::size_t>(row->lane);
    const auto& levels = summaries_->levels(lane);
    const int level = analysis::SummaryLod::level_for(levels, scene_.viewport.ns_per_px());
    if (level < 0) return std::nullopt;
    const int shift = levels[static_cast<std::size_t>(level)].bin_log2();
    // The bin under the pointer, else the nearest within two pixels (a bin may be one wide).
    const double x = plot_x(pos);
    const auto t = static_cast<std::int64_t>(scene_.viewport.time_at(x));
    const auto t0 = static_cast<std::int64_t>(scene_.viewport.time_at(x - 2));
    const auto t1 = static_cast<std::int64_t>(scene_.viewport.time_at(x + 2)) + 1;
    std::vector<store::SummaryBin> bins;
    summaries_->bins(lane, level, t0, t1, bins);
    const store::SummaryBin* best = nullptr;
    std::int64_t best_dist = 0;
    for (const auto& b : bins) {
        if (b.count == 0 && b.busy_ns <= 0) continue;
        const std::int64_t b0 = b.bin << shift, b1 = (b.bin + 1) << shift;
        const std::int64_t dist = t < b0 ? b0 - t : (t >= b1 ? t - b1 + 1 : 0);
        if (best == nullptr || dist < best_dist) best = &b, best_dist = dist;
    }
    if (best == nullptr) return std::nullopt;
    return Bin{lane, shift, *best};
}

int TimelineHitTest::step_at(QPoint pos) const {
    if (scene_.index == nullptr || pos.x() < Layout::kLabelWidth) return -1;
    const auto* row = layout_.row_at(pos.y() - Layout::kAxisHeight + scene_.scroll_y);
    if (row == nullptr || row->kind != Layout::RowKind::Steps) return -1;
    const auto t = static_cast<std::int64_t>(scene_.viewport.time_at(plot_x(pos)));
    const auto r = scene_.index->visible_steps(t, t + 1);
    const auto& order = scene_.index->steps_by_start();
    for (std::size_t k = r.begin; k < r.end; ++k) {
        const auto& s = scene_.index->run().steps[order[k]];
        if (s.start_ns <= t && t < s.end_ns && !scene_.index->requests().is_token(order[k]))
            return static_cast<int>(order[k]);
    }
    return -1;
}

int TimelineHitTest::token_at(QPoint pos) const {
    if (scene_.index == nullptr || pos.x() < Layout::kLabelWidth) return -1;
    const int content_y = pos.y() - Layout::kAxisHeight + scene_.scroll_y;
    const auto* row = layout_.row_at(content_y);
    if (row == nullptr || row->kind != Layout::RowKind::Tokens) return -1;
    return TokenTrack::at(scene_, *row, content_y, plot_x(pos));
}

}  // namespace tokenscope::ui
