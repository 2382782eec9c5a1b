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
    const RequestTrack& requests = index->requests();
    if (requests.shown()) {
        const int sub_rows = requests.slot_count();
        rows_.push_back(Row{RowKind::Tokens, -1, y, sub_rows * kSpanHeight + kGap, sub_rows,
                            QStringLiteral("Requests (tokens)")});
        y += rows_.back().height;
    }
    if (!run.steps.empty()) {
        rows_.push_back(
            Row{RowKind::Steps, -1, y, kSpanHeight + kGap, 1,
                requests.shown() ? QStringLiteral("Iterations") : QStringLiteral("Steps")});
        y += rows_.back().height;
    }
    if (index != grouped_index_) {
        grouped_index_ = index;
        groups_ = analysis::lane_groups(run);
        collapsed_.clear();
        std::set<std::pair<std::int64_t, std::int64_t>> owners;  // (rank, process)
        std::set<std::int32_t> gpus;
        for (const auto& g : groups_) {
            owners.insert({g.rank, g.process});
            if (g.device >= 0) gpus.insert(g.device);
        }
        grouped_ = owners.size() > 1 || gpus.size() > 1;
    }
    if (!grouped()) {
        std::vector<std::size_t> all(run.lanes.size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
        height_ = add_lane_rows(index, all, y);
        return;
    }
    std::vector<std::size_t> step_tracks;
    for (std::size_t i = 0; i < run.lanes.size(); ++i)
        if (run.lanes[i].kind == trace::LaneKind::StepTrack) step_tracks.push_back(i);
    y = add_lane_rows(index, step_tracks, y);
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        const auto& group = groups_[g];
        const bool shut = collapsed(static_cast<int>(g));
        Row header{RowKind::Group, -1, y, kSpanHeight + kGap, 1,
                   // The lane count only when closed: the label column is narrow.
                   shut ? QStringLiteral("\u25b8 %1 (%2)")
                              .arg(QString::fromStdString(group.label))
                              .arg(group.lanes.size())
                        : QStringLiteral("\u25be %1").arg(QString::fromStdString(group.label)),
                   static_cast<int>(g)};
        rows_.push_back(header);
        y += header.height;
        if (!shut) y = add_lane_rows(index, group.lanes, y);
    }
    height_ = y;
}

void TimelineLayout::set_collapsed(int group, bool collapsed) {
    if (collapsed)
        collapsed_.insert(group);
    else
        collapsed_.erase(group);
}

// Rows for `lanes` in Nsight Systems' order (threads, streams, copy engines,
// counters; by device within a kind) from content y; returns the y below them.
int TimelineLayout::add_lane_rows(const TimelineIndex* index, const std::vector<std::size_t>& lanes,
                                  int y) {
    const auto& run = index->run();
    std::vector<int> order;
    for (std::size_t lane : lanes) order.push_back(static_cast<int>(lane));
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
            row.levels = index->max_depth(static_cast<std::size_t>(lane)) + 1;
            if (const auto it = learnt_levels_.find(lane); it != learnt_levels_.end())
                row.levels = std::max(row.levels, it->second);
            row.depth_rows = std::min(row.levels, depth_limit(lane));
            row.height = row.depth_rows * kSpanHeight + kGap;
        }
        rows_.push_back(row);
        y += row.height;
    }
    return y;
}

void TimelineLayout::set_depth_limit(int lane, int rows) {
    if (rows <= 0)
        depth_limits_.erase(lane);
    else
        depth_limits_[lane] = rows;
}

bool TimelineLayout::learn_levels(int lane, int levels) {
    int& known = learnt_levels_[lane];
    if (levels <= std::max(known, 1)) return false;
    known = levels;
    return true;
}

int TimelineLayout::depth_limit(int lane) const {
    const auto it = depth_limits_.find(lane);
    return it == depth_limits_.end() ? kMaxDepthRows : it->second;
}

int TimelineLayout::group_of_lane(int lane) const {
    for (std::size_t g = 0; g < groups_.size(); ++g)
        for (std::size_t l : groups_[g].lanes)
            if (static_cast<int>(l) == lane) return static_cast<int>(g);
    return -1;
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
