// libtokenscope-images.so: the CLI's images, drawn headless with the GUI's plot code
// (image_plugin.h says why they live in a module). Built from heatmap_image_export's
// and sweep_image_export's Qt half; those files keep the CLI's side.
#include <QSize>
#include <QString>

#include "headless_qt.h"
#include "image_plugin.h"
#include "ui/plots/fleet_plot_data.h"
#include "ui/plots/heatmap_image.h"
#include "ui/plots/sweep_plot.h"

namespace tokenscope::cli {
namespace {

std::string heatmap(const analysis::Heatmap& map, const std::string& title, const std::string& path,
                    int width, int height, int dpi) {
    HeadlessQt qt;
    QString error;
    if (!ui::plots::render_heatmap_image(map, QString::fromStdString(title),
                                         QString::fromStdString(path), QSize(width, height), dpi,
                                         &error))
        return "heatmap: " + error.toStdString();
    return {};
}

std::string fleet(const fleet::FleetMatrix& m, const std::string& source, const std::string& title,
                  const std::string& path, int width, int height, int dpi) {
    HeadlessQt qt;
    QString error;
    if (!ui::plots::render_heatmap_image(
            ui::plots::FleetPlotData::plotData(m, QString::fromStdString(source)),
            QString::fromStdString(title), QString::fromStdString(path), QSize(width, height), dpi,
            &error))
        return "fleet: " + error.toStdString();
    return {};
}

std::string sweep(const SweepReport& r, const std::string& kind, const std::string& path, int width,
                  int height, int dpi) {
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
        return "sweep-report: " + error.toStdString();
    return {};
}

constexpr ImagePlugin kPlugin{heatmap, fleet, sweep};

}  // namespace
}  // namespace tokenscope::cli

extern "C" __attribute__((visibility("default"))) const tokenscope::cli::ImagePlugin*
tokenscope_image_plugin() {
    return &tokenscope::cli::kPlugin;
}
