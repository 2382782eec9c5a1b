#pragma once

#include <QSize>
#include <QString>

#include "analysis/heatmap/heatmap.h"
#include "heatmap_plot_data.h"

namespace tokenscope::ui::plots {

// Renders `map` the way the Heatmap tab draws it (HeatmapPlot) without showing a
// window, and saves it by the extension of `path`: .png, .svg or .pdf. `size` is
// the image in pixels and `dpi` its resolution (see PlotExporter). Times are in ms,
// columns labelled from the first window's start. Needs a QApplication (the CLI
// makes one on the offscreen platform). Returns false with `error` naming the file
// and the problem.
bool render_heatmap_image(const analysis::Heatmap& map, const QString& title, const QString& path,
                          QSize size, int dpi, QString* error = nullptr);
// The same for plot data made elsewhere (the fleet matrix, with its quantile
// and UTC window labels).
bool render_heatmap_image(HeatmapPlotData data, const QString& title, const QString& path,
                          QSize size, int dpi, QString* error = nullptr);

}  // namespace tokenscope::ui::plots
