#pragma once

#include <QString>
#include <map>
#include <set>
#include <vector>

#include "analysis/ranks/lane_groups.h"
#include "timeline_index.h"

namespace tokenscope::ui {

// Rows of the timeline from top to bottom: a joined run's request track (its
// tokens; the step track then holds the iterations), the step track, then CPU threads,
// GPU streams, copy engines and counters (Nsight Systems' order), in content
// coordinates below the time axis. A run with several ranks or GPUs puts the lanes
// under a header row per rank and GPU, which collapses and expands.
class TimelineLayout {
  public:
    enum class RowKind { Steps, Activities, Counter, Tokens, Group };
    struct Row {
        RowKind kind = RowKind::Activities;
        int lane = -1;  // index into run.lanes; -1 for the step track
        int y = 0;
        int height = 0;
        int depth_rows = 1;  // nesting rows of an activity lane, sub-rows of the request track
        QString label;
        int group = -1;  // a Group header's index into groups(); -1 for other rows
        // Nesting levels of an activity lane; those past depth_rows share its last row.
        int levels = 1;
    };

    void build(const TimelineIndex* index);
    const std::vector<Row>& rows() const { return rows_; }
    int content_height() const { return height_; }
    // The row at content y, or nullptr between/below rows.
    const Row* row_at(int y) const;
    const Row* row_of_lane(int lane) const;

    // Several ranks, processes or GPUs: lanes under one collapsible header per group
    // (analysis::lane_groups). One process on one GPU shows no headers. Collapsed groups stay
    // collapsed across build() for the same run; a new run starts all expanded.
    const std::vector<analysis::LaneGroup>& groups() const { return groups_; }
    bool grouped() const { return grouped_; }
    bool collapsed(int group) const { return collapsed_.count(group) > 0; }
    void set_collapsed(int group, bool collapsed);
    // Forgets the groups and their collapsed state: the next build() is a new run's.
    void reset_groups() { grouped_index_ = nullptr; }
    // Nesting rows shown for a lane: kMaxDepthRows unless set here (the lane's menu, or a
    // search match deeper than that); `rows` <= 0 goes back to the default. Kept across
    // build() until clear_depth_limits().
    void set_depth_limit(int lane, int rows);
    int depth_limit(int lane) const;
    void clear_depth_limits() { depth_limits_.clear(); }
    // Nesting levels learnt from a stretch of a run whose activities stayed in its file
    // (its index knows none): a lane gets at least `levels` from the next build() on.
    // Only raises, so rows do not jump back and forth while the view moves; true when
    // `levels` was more than the lane had. Kept until forget_levels() (a new run).
    bool learn_levels(int lane, int levels);
    void forget_levels() { learnt_levels_.clear(); }
    // The group whose lanes hold `lane`, or -1 (no groups).
    int group_of_lane(int lane) const;

    static constexpr int kAxisHeight = 22;
    static constexpr int kLabelWidth = 170;
    static constexpr int kSpanHeight = 16;
    static constexpr int kCounterHeight = 36;
    static constexpr int kMaxDepthRows = 6;
    static constexpr int kGap = 4;

  private:
    int add_lane_rows(const TimelineIndex* index, const std::vector<std::size_t>& lanes, int y);

    std::vector<Row> rows_;
    int height_ = 0;
    std::vector<analysis::LaneGroup> groups_;
    std::set<int> collapsed_;
    std::map<int, int> depth_limits_;   // lane -> rows
    std::map<int, int> learnt_levels_;  // lane -> levels
    bool grouped_ = false;
    const TimelineIndex* grouped_index_ = nullptr;
};

}  // namespace tokenscope::ui
