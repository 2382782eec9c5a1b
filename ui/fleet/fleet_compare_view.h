#pragma once

#include <QWidget>

#include "fleet/fleet_matrix.h"

namespace tokenscope::ui::plots {
class HeatmapPlot;
}

namespace tokenscope::ui {

// Compare of two time ranges of the fleet (this week against last week): the
// earlier range (A) and the later one (B) on one colour scale, and B − A on a
// diverging scale, rows matched by label and windows by position (docs/compare.md's rules applied
// to docs/fleet.md's matrix).
class FleetCompareView : public QWidget {
    Q_OBJECT
  public:
    explicit FleetCompareView(QWidget* parent = nullptr);

    void setMatrices(const fleet::FleetMatrix& earlier, const fleet::FleetMatrix& later,
                     const QString& source);
    void clear();

    plots::HeatmapPlot* earlierPlot() const { return a_; }
    plots::HeatmapPlot* laterPlot() const { return b_; }
    plots::HeatmapPlot* deltaPlot() const { return delta_; }

  private:
    plots::HeatmapPlot* a_;
    plots::HeatmapPlot* b_;
    plots::HeatmapPlot* delta_;
};

}  // namespace tokenscope::ui
