#pragma once

#include <QString>
#include <vector>

#include "timeline_index.h"

namespace tokenscope::ui {

// Rows of the timeline from top to bottom: the step track, then CPU threads,
// GPU streams, copy engines and counters (Nsight Systems' order), in content
// coordinates below the time axis.
class TimelineLayout {
  public:
    enum class RowKind { Steps, Activities, Counter };
    struct Row {
        RowKind kind = RowKind::Activities;
        int lane = -1;  // index into run.lanes; -1 for the step track
        int y = 0;
        int height = 0;
        int depth_rows = 1;  // nesting rows of an activity lane
        QString label;
    };

    void build(const TimelineIndex* index);
    const std::vector<Row>& rows() const { return rows_; }
    int content_height() const { return height_; }
    // The row at content y, or nullptr between/below rows.
    const Row* row_at(int y) const;
    const Row* row_of_lane(int lane) const;

    static constexpr int kAxisHeight = 22;
    static constexpr int kLabelWidth = 170;
    static constexpr int kSpanHeight = 16;
    static constexpr int kCounterHeight = 36;
    static constexpr int kMaxDepthRows = 6;
    static constexpr int kGap = 4;

  private:
    std::vector<Row> rows_;
    int height_ = 0;
};

}  // namespace tokenscope::ui
