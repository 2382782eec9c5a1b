#include "sweep_image_export.h"

#include <fstream>

#include "analysis/sweep/strategy_comparison.h"
#include "arg_parser.h"
#include "headless_qt.h"
#include "ui/plots/sweep_plot.h"

namespace tokenscope::cli {

void export_sweep_image(const SweepReport& r, const std::string& kind, const std::string& path,
                        int width, int height, int dpi) {
    if (kind == "strategies" && path.ends_with(".csv")) {
        const auto rows = analysis::strategy_comparison(r.points, r.input.axes);
        if (rows.empty())
            throw UsageError{"sweep-report: " + path + ": the sweep has no strategy axis"};
        std::ofstream out(path, std::ios::trunc);
        analysis::write_strategy_csv(out, rows);
        out.flush();
        if (!out) throw UsageError{"sweep-report: " + path + ": cannot write the file"};
        return;
    }
    HeadlessQt qt;
    const ui::plots::SweepImage which = kind == "grid"         ? ui::plots::SweepImage::Grid
                                        : kind == "pareto"     ? ui::plots::SweepImage::Pareto
                                        : kind == "strategies" ? ui::plots::SweepImage::Strategies
                                                               : ui::plots::SweepImage::Knee;
    std::string title = r.input.name;
    if (which == ui::plots::SweepImage::Grid)
        title += ": SLA attainment";
    else if (which == ui::plots::SweepImage::Strategies)
        title += ": decoding strategies";
    else
        title += ": " + r.curve.y_name + " against " + r.curve.x_name;
    if (r.input.model) title += " (model)";
    QString error;
    if (!ui::plots::render_sweep_image(which, r.points, r.input.axes, r.curve,
                                       QString::fromStdString(title), QString::fromStdString(path),
                                       QSize(width, height), dpi, &error))
        throw UsageError{"sweep-report: " + error.toStdString()};
}

}  // namespace tokenscope::cli
