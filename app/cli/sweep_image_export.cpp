#include "sweep_image_export.h"

#include "arg_parser.h"
#include "headless_qt.h"
#include "ui/sweep_plot.h"

namespace tokenscope::cli {

void export_sweep_image(const SweepReport& r, const std::string& kind, const std::string& path,
                        int width, int height, int dpi) {
    HeadlessQt qt;
    const ui::SweepImage which = kind == "grid"     ? ui::SweepImage::Grid
                                 : kind == "pareto" ? ui::SweepImage::Pareto
                                                    : ui::SweepImage::Knee;
    std::string title = r.input.name;
    if (which == ui::SweepImage::Grid)
        title += ": SLA attainment";
    else
        title += ": " + r.curve.y_name + " against " + r.curve.x_name;
    if (r.input.model) title += " (model)";
    QString error;
    if (!ui::render_sweep_image(which, r.points, r.input.axes, r.curve,
                                QString::fromStdString(title), QString::fromStdString(path),
                                QSize(width, height), dpi, &error))
        throw UsageError{"sweep-report: " + error.toStdString()};
}

}  // namespace tokenscope::cli
