#pragma once

#include <QSize>
#include <QString>

#include "analysis/heatmap/heatmap.h"

class QCustomPlot;

namespace tokenscope::ui::plots {

// Writes a plot to PNG, SVG or PDF (chosen by the file extension) and a heatmap
// matrix to CSV.
//
// Size and DPI: `size` is the image in pixels and `dpi` its resolution, as in an
// image editor, so the picture is size / dpi inches. The plot is laid out at
// size x 96 / dpi device-independent pixels and drawn scaled by dpi / 96: a PNG
// is exactly `size` pixels with `dpi` in its metadata; a PDF page and an SVG are
// size / dpi inches (vector, text stays text). At 96 DPI one layout pixel is one
// image pixel; at 192 DPI text and lines are twice as many pixels.
class PlotExporter {
  public:
    enum class Format { Png, Svg, Pdf, Csv, Unknown };
    static Format formatOf(const QString& path);
    static QString extension(Format format);
    // The layout size of the plot for an image of `size` pixels at `dpi`.
    static QSize layoutSize(QSize size, int dpi);
    // Empty when the size and DPI are usable, else why not.
    static QString checkSize(QSize size, int dpi);

    // PNG, SVG or PDF by extension; false with `error` naming the file and the problem.
    static bool save(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                     QString* error = nullptr);
    // analysis::write_heatmap_csv, the format of `tokenscope-cli heatmap --csv`.
    static bool saveCsv(const analysis::Heatmap& map, const QString& path,
                        QString* error = nullptr);

  private:
    static bool savePng(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                        QString* error);
    static bool saveSvg(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                        QString* error);
    static bool savePdf(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                        QString* error);
};

}  // namespace tokenscope::ui::plots
