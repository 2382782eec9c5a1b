#pragma once

#include <QColor>
#include <QPainterPath>
#include <QPalette>
#include <QRectF>
#include <QString>
#include <functional>
#include <vector>

#include "analysis/attribution/classifier.h"
#include "timeline_scene.h"

class QFontMetrics;
class QPainter;

namespace tokenscope::ui {

// Draws one frame of the timeline: axis, lane labels, spans (folded by
// SpanFolder), counters, the step track, step guides, selection and the
// correlation link. Only what lies in the visible window is visited.
class TimelinePainter {
  public:
    TimelinePainter(const TimelineScene& scene, analysis::Classifier* classifier,
                    const QPalette& palette);
    void paint(QPainter& p, int width, int height);

    // Where activity i is drawn, in widget coordinates; empty when it is off screen.
    QRectF span_rect(std::size_t i, int width) const;
    QColor color_of(const trace::Activity& a) const;
    // The time axis' ticks across a plot `plot_w` wide (plot x), each labelled unless its
    // label would not fit whole before the right edge.
    struct Tick {
        double x = 0;
        QString label;
    };
    std::vector<Tick> axis_ticks(int plot_w, const QFontMetrics& fm) const;
    // A lane's name cut to `width`, keeping what tells lanes apart (see the definition).
    static QString elide_lane_label(const QString& label, const QFontMetrics& fm, int width);
    // "▸ N more levels", under the name of a lane whose nesting is deeper than shown.
    static QString more_levels_text(const TimelineLayout::Row& row);

  private:
    using Row = TimelineLayout::Row;
    int row_top(const Row& row) const;
    void paint_axis(QPainter& p, int plot_w) const;
    void paint_empty(QPainter& p, int width, int height) const;
    void paint_spans(QPainter& p, const Row& row, int plot_w) const;
    // Paints the row from its summary bins when the view is zoomed out enough and they
    // are cached; false (nothing painted) otherwise.
    bool paint_summary(QPainter& p, const Row& row, int plot_w) const;
    void paint_counter(QPainter& p, const Row& row, int plot_w) const;
    QPainterPath counter_area(const std::vector<trace::CounterSample>& cs,
                              const TimelineIndex::Range& r,
                              const std::function<double(double)>& y_of, double bottom,
                              int plot_w) const;
    void paint_steps(QPainter& p, const Row& row, int plot_w) const;
    void paint_guides(QPainter& p, int plot_w, int height) const;
    void paint_overlays(QPainter& p, int width, int height) const;
    void paint_labels(QPainter& p, int height) const;
    void paint_notice(QPainter& p, int width) const;
    int depth_of(std::size_t i) const;

    const TimelineScene& s_;
    analysis::Classifier* classifier_;
    QPalette palette_;
};

}  // namespace tokenscope::ui
