#pragma once

#include <qcustomplot.h>

#include <functional>
#include <optional>
#include <utility>

#include "heatmap_plot_data.h"
#include "time_format.h"

namespace tokenscope::ui::plots {

class HeatmapMarks;

// A P95 (or delta) matrix as a QCPColorMap: rows labelled on the left (top row
// first), window start times below, a colour scale with units on the right.
// Blank cells are NaN, drawn transparent over a hatched background, so they
// never look like low values. Hover gives a cell's P95 and sample count; a
// click emits the cell's window.
class HeatmapPlot : public QCustomPlot {
    Q_OBJECT
  public:
    explicit HeatmapPlot(QWidget* parent = nullptr);

    void setHeatmap(HeatmapPlotData data);
    const HeatmapPlotData& heatmap() const { return data_; }
    void setUnit(TimeUnit unit);
    // Overrides the data's colour range (ns): side-by-side plots share one scale.
    void setColorRange(std::optional<double> lo, std::optional<double> hi);
    void setTitle(const QString& title);
    // How a title wider than the plot is cut (the middle by default); a prefix up to
    // ": " ("A: ") stays.
    void setTitleElide(Qt::TextElideMode mode);
    // Shown instead of the plot when there is nothing to draw.
    void setEmptyText(const QString& text);
    void setLegendNoteVisible(bool visible);
    // A logarithmic colour scale, so decode steps stay readable next to a long
    // prefill; ignored for deltas and for ranges that reach 0.
    void setLogScale(bool log);
    bool logScale() const { return log_scale_; }

    QCPColorMap* colorMap() const { return map_; }
    QCPColorScale* colorScale() const { return scale_; }
    const HeatmapMarks* marks() const { return marks_; }
    // (row, column) under a widget position, if any.
    std::optional<std::pair<std::size_t, std::size_t>> cellAt(QPointF pos) const;
    QPointF cellCenter(std::size_t row, std::size_t column) const;
    QString cellToolTip(std::size_t row, std::size_t column) const;
    // Replaces the built-in cell tooltip (the fleet view names its quantile and the
    // sample rate behind each cell); an empty function restores the default.
    using ToolTipFn = std::function<QString(std::size_t row, std::size_t column)>;
    void setCellToolTipFunction(ToolTipFn fn) { tooltip_fn_ = std::move(fn); }
    // The whole title (drawn elided in the middle where the plot is narrower).
    QString displayedTitle() const;
    // The note below the plot as drawn: wrapped to the plot's width.
    QString noteText() const;

  signals:
    // A click on a cell: its row and column, then its window.
    void cellPicked(int row, int column);
    void cellActivated(qint64 t0, qint64 t1);

  protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void rebuild();
    void fitTexts();
    void fillMap();
    void labelAxes();
    void updateMarks();
    void applyColorRange();
    void applyPalette();
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    QString valueText(double ns) const;

    HeatmapPlotData data_;
    TimeUnit unit_ = TimeUnit::Milliseconds;
    std::optional<double> range_lo_, range_hi_;
    bool range_override_ = false;
    bool log_scale_ = false;
    bool note_visible_ = true;
    QString empty_text_;
    QString note_text_;  // unwrapped
    Qt::TextElideMode title_elide_ = Qt::ElideMiddle;
    QCPTextElement* title_;
    QCPTextElement* note_;
    QCPColorMap* map_;
    QCPColorScale* scale_;
    HeatmapMarks* marks_;
    QPoint press_pos_;
    ToolTipFn tooltip_fn_;
};

}  // namespace tokenscope::ui::plots
