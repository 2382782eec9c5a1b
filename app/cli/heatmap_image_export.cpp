#include "heatmap_image_export.h"

#include <QSize>
#include <QString>

#include "arg_parser.h"
#include "headless_qt.h"
#include "ui/plots/fleet_plot_data.h"
#include "ui/plots/heatmap_image.h"

namespace tokenscope::cli {

void export_heatmap_image(const analysis::Heatmap& map, const std::string& title,
                          const std::string& path, int width, int height, int dpi) {
    HeadlessQt qt;
    QString error;
    if (!ui::plots::render_heatmap_image(map, QString::fromStdString(title),
                                         QString::fromStdString(path), QSize(width, height), dpi,
                                         &error))
        throw UsageError{"heatmap: " + error.toStdString()};
}

void export_fleet_image(const fleet::FleetMatrix& m, const std::string& source,
                        const std::string& title, const std::string& path, int width, int height,
                        int dpi) {
    HeadlessQt qt;
    QString error;
    if (!ui::plots::render_heatmap_image(
            ui::plots::FleetPlotData::plotData(m, QString::fromStdString(source)),
            QString::fromStdString(title), QString::fromStdString(path), QSize(width, height), dpi,
            &error))
        throw UsageError{"fleet: " + error.toStdString()};
}

}  // namespace tokenscope::cli
