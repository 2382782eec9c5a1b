#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

#include "analysis/sweep/strategy_comparison.h"
#include "analysis/sweep/sweep_curve.h"
#include "analysis/sweep/sweep_summary.h"

class QCustomPlot;

namespace tokenscope::ui::plots {

// The sweep views (docs/sweeps.md, Views) drawn into a QCustomPlot, shared by the
// CLI's images and the GUI: the SLA-attainment grid (batch down, prompt across,
// one band of rows per value of the other axes), the Pareto plot (every point, the
// frontier, the power-law fit and its formula, the knee) and the knee plot (the
// curve, its chord and the Kneedle point). `model` adds "(model)" to the title.
class SweepPlot {
  public:
    struct Grid {
        QStringList rows, columns;           // e.g. "llama-8b  batch 8", "512"
        std::vector<std::vector<double>> v;  // [row][column] attainment 0..1, NaN = none
    };
    // Rows and columns from the points' "batch" and "prompt" parameters; the other
    // axes name the row bands. Empty when the sweep has no batch and prompt axes.
    static Grid gridOf(const std::vector<analysis::SweepPointSummary>& points,
                       const std::vector<std::string>& axes);

    static void drawGrid(QCustomPlot* plot, const Grid& grid, const QString& title);
    static void drawPareto(QCustomPlot* plot, const analysis::SweepCurve& curve,
                           const QString& title);
    static void drawKnee(QCustomPlot* plot, const analysis::SweepCurve& curve,
                         const QString& title);
    // Decoding strategies side by side: TTFT and TPOT P50 and P90 bars per strategy
    // (ms), the P50 bars with +-1 std error bars.
    static void drawStrategies(QCustomPlot* plot, const std::vector<analysis::StrategyRow>& rows,
                               const QString& title);
};

// Which view an image shows.
enum class SweepImage { Grid, Pareto, Knee, Strategies };

// Renders one view without a window and saves it by the extension of `path` (.png,
// .svg, .pdf; see PlotExporter). Needs a QApplication. False with `error` naming
// the file and the problem.
bool render_sweep_image(SweepImage kind, const std::vector<analysis::SweepPointSummary>& points,
                        const std::vector<std::string>& axes, const analysis::SweepCurve& curve,
                        const QString& title, const QString& path, QSize size, int dpi,
                        QString* error = nullptr);

}  // namespace tokenscope::ui::plots
