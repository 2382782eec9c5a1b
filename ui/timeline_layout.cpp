#include "timeline_layout.h"

#include <algorithm>

namespace tokenscope::ui {
namespace {

int kind_order(trace::LaneKind kind) {
    switch (kind) {
        case trace::LaneKind::StepTrack:
            return 0;
        case trace::LaneKind::CpuThread:
            return 1;
        case trace::LaneKind::GpuStream:
            return 2;
        case trace::LaneKind::CopyEngine:
            return 3;
        case trace::LaneKind::Counter:
            return 4;
    }
    return 5;
}

QString lane_label(const trace::Lane& lane) {
    if (!lane.name.empty()) return QString::fromStdString(lane.name);
    switch (lane.kind) {
        case trace::LaneKind::CpuThread:
            return QStringLiteral("Thread %1").arg(lane.native_id);
        case trace::LaneKind::GpuStream:
            return QStringLiteral("GPU %1 stream %2").arg(lane.device).arg(lane.native_id);
        case trace::LaneKind::CopyEngine:
            return QStringLiteral("GPU %1 copy engine %2").arg(lane.device).arg(lane.native_id);
        case trace::LaneKind::Counter:
            return QStringLiteral("Counter %1").arg(lane.native_id);
        case trace::LaneKind::StepTrack:
            return QStringLiteral("Ranges");
    }
    return {};
}

}  // namespace

void TimelineLayout::build(const TimelineIndex* index) {
    rows_.clear();
    height_ = 0;
    if (index == nullptr) return;
    const auto& run = index->run();
    int y = 0;
    if (!run.steps.empty()) {
        rows_.push_back(Row{RowKind::Steps, -1, y, kSpanHeight + kGap, 1, QStringLiteral("Steps")});
        y += rows_.back().height;
    }
    std::vector<int> order(run.lanes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const auto& la = run.lanes[static_cast<std::size_t>(a)];
        const auto& lb = run.lanes[static_cast<std::size_t>(b)];
        return std::pair(kind_order(la.kind), la.device) <
               std::pair(kind_order(lb.kind), lb.device);
    });
    for (int lane : order) {
        const auto& l = run.lanes[static_cast<std::size_t>(lane)];
        Row row;
        row.lane = lane;
        row.y = y;
        row.label = lane_label(l);
        if (l.kind == trace::LaneKind::Counter) {
            row.kind = RowKind::Counter;
            row.height = kCounterHeight + kGap;
        } else {
            row.depth_rows =
                std::min(index->max_depth(static_cast<std::size_t>(lane)) + 1, kMaxDepthRows);
            row.height = row.depth_rows * kSpanHeight + kGap;
        }
        rows_.push_back(row);
        y += row.height;
    }
    height_ = y;
}

const TimelineLayout::Row* TimelineLayout::row_at(int y) const {
    for (const auto& r : rows_)
        if (y >= r.y && y < r.y + r.height - kGap) return &r;
    return nullptr;
}

const TimelineLayout::Row* TimelineLayout::row_of_lane(int lane) const {
    for (const auto& r : rows_)
        if (r.lane == lane) return &r;
    return nullptr;
}

}  // namespace tokenscope::ui
