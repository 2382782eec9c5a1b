#pragma once

#include <QPalette>

class QCustomPlot;
class QCPAxis;

namespace tokenscope::ui::plots {

// Colours a QCustomPlot from the widget palette, so plots read on dark themes
// too (QCustomPlot itself always draws black on white).
class PlotStyle {
  public:
    static void apply(QCustomPlot* plot, const QPalette& palette);
    static void applyAxis(QCPAxis* axis, const QPalette& palette);
};

}  // namespace tokenscope::ui::plots
