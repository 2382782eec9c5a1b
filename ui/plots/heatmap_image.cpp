#include "heatmap_image.h"

#include <QApplication>

#include "heatmap_plot.h"
#include "plot_exporter.h"

namespace tokenscope::ui::plots {

bool render_heatmap_image(const analysis::Heatmap& map, const QString& title, const QString& path,
                          QSize size, int dpi, QString* error) {
    return render_heatmap_image(HeatmapPlotData::fromHeatmap(map), title, path, size, dpi, error);
}

bool render_heatmap_image(HeatmapPlotData data, const QString& title, const QString& path,
                          QSize size, int dpi, QString* error) {
    if (qobject_cast<QApplication*>(QCoreApplication::instance()) == nullptr) {
        if (error != nullptr)
            *error =
                QStringLiteral("%1: rendering needs a QApplication (offscreen platform)").arg(path);
        return false;
    }
    const QString bad = PlotExporter::checkSize(size, dpi);
    if (!bad.isEmpty()) {
        if (error != nullptr) *error = QStringLiteral("%1: %2").arg(path, bad);
        return false;
    }
    HeatmapPlot plot;
    plot.resize(PlotExporter::layoutSize(size, dpi));
    data.title = title;
    plot.setEmptyText(QStringLiteral("No samples for this metric and rows."));
    plot.setHeatmap(std::move(data));
    return PlotExporter::save(&plot, path, size, dpi, error);
}

}  // namespace tokenscope::ui::plots
