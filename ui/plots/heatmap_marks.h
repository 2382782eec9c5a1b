#pragma once

#include <qcustomplot.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace tokenscope::ui::plots {

// Draws SLA breaches (outlined cells) and recalibration flags (a triangle at the
// first flagged window) and the end of the SLA baseline over a heatmap, in one pass however many
// cells breach; one QCPItemRect per cell would not scale to wide heatmaps.
class HeatmapMarks : public QCPLayerable {
  public:
    HeatmapMarks(QCustomPlot* plot, QCPAxis* key_axis, QCPAxis* value_axis);

    // (row, column) cells; key = column, value = row in plot coordinates.
    void setBreaches(std::vector<std::pair<std::size_t, std::size_t>> cells);
    void setFlags(std::vector<std::pair<std::size_t, std::size_t>> cells);
    void setColors(const QColor& breach, const QColor& flag);
    // A dashed line after the first `columns` windows: the SLA's baseline
    // (0 = no line; no line either when the baseline is every window).
    void setBaseline(std::size_t columns, std::size_t column_count);
    std::size_t baseline() const { return baseline_; }
    std::size_t breachCount() const { return breaches_.size(); }
    std::size_t flagCount() const { return flags_.size(); }

  protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

  private:
    QRectF cellRect(std::size_t row, std::size_t column) const;

    QCPAxis* key_;
    QCPAxis* value_;
    std::vector<std::pair<std::size_t, std::size_t>> breaches_;
    std::vector<std::pair<std::size_t, std::size_t>> flags_;
    QColor breach_color_{0xff, 0x2d, 0x55};
    QColor flag_color_{Qt::white};
    std::size_t baseline_ = 0;
};

}  // namespace tokenscope::ui::plots
