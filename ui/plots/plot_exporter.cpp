#include "plot_exporter.h"

#include <qcustomplot.h>
#include <QFileInfo>
#include <QImage>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>
#include <sstream>

#include "analysis/heatmap/heatmap_csv.h"

namespace tokenscope::ui::plots {
namespace {

constexpr double kBaseDpi = 96.0;
constexpr int kMaxPixels = 20000;
constexpr QSize kMinLayout(160, 100);

bool fail(QString* error, const QString& path, const QString& why) {
    if (error != nullptr) *error = QStringLiteral("%1: %2").arg(path, why);
    return false;
}

// Lays the plot out at the layout size and draws it scaled to fill `device`
// pixels. The device must be at 96 DPI: fonts are sized in points, so a device
// at the export DPI would scale text twice (once by its DPI, once by the painter).
void render(QCustomPlot* plot, QCPPainter& painter, QSize layout, QSize device, bool vector) {
    if (vector) painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNonCosmetic);
    painter.scale(static_cast<double>(device.width()) / layout.width(),
                  static_cast<double>(device.height()) / layout.height());
    plot->toPainter(&painter, layout.width(), layout.height());
}

}  // namespace

PlotExporter::Format PlotExporter::formatOf(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png")) return Format::Png;
    if (ext == QLatin1String("svg")) return Format::Svg;
    if (ext == QLatin1String("pdf")) return Format::Pdf;
    if (ext == QLatin1String("csv")) return Format::Csv;
    return Format::Unknown;
}

QString PlotExporter::extension(Format format) {
    switch (format) {
        case Format::Png:
            return QStringLiteral("png");
        case Format::Svg:
            return QStringLiteral("svg");
        case Format::Pdf:
            return QStringLiteral("pdf");
        case Format::Csv:
            return QStringLiteral("csv");
        case Format::Unknown:
            break;
    }
    return {};
}

QSize PlotExporter::layoutSize(QSize size, int dpi) {
    const double f = kBaseDpi / std::max(dpi, 1);
    return {std::max(1, static_cast<int>(std::lround(size.width() * f))),
            std::max(1, static_cast<int>(std::lround(size.height() * f)))};
}

QString PlotExporter::checkSize(QSize size, int dpi) {
    if (dpi < 24 || dpi > 2400)
        return QStringLiteral("DPI must be between 24 and 2400, got %1").arg(dpi);
    if (size.width() < 1 || size.height() < 1 || size.width() > kMaxPixels ||
        size.height() > kMaxPixels)
        return QStringLiteral("size must be 1..%1 pixels each way, got %2x%3")
            .arg(kMaxPixels)
            .arg(size.width())
            .arg(size.height());
    const QSize layout = layoutSize(size, dpi);
    if (layout.width() < kMinLayout.width() || layout.height() < kMinLayout.height())
        return QStringLiteral(
                   "%1x%2 pixels at %3 DPI leaves too little room for the plot "
                   "(%4x%5 at 96 DPI, at least %6x%7 needed); use a larger size or "
                   "a lower DPI")
            .arg(size.width())
            .arg(size.height())
            .arg(dpi)
            .arg(layout.width())
            .arg(layout.height())
            .arg(kMinLayout.width())
            .arg(kMinLayout.height());
    return {};
}

bool PlotExporter::save(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                        QString* error) {
    if (plot == nullptr) return fail(error, path, QStringLiteral("no plot to export"));
    const QString bad = checkSize(size, dpi);
    if (!bad.isEmpty()) return fail(error, path, bad);
    switch (formatOf(path)) {
        case Format::Png:
            return savePng(plot, path, size, dpi, error);
        case Format::Svg:
            return saveSvg(plot, path, size, dpi, error);
        case Format::Pdf:
            return savePdf(plot, path, size, dpi, error);
        case Format::Csv:
        case Format::Unknown:
            break;
    }
    return fail(error, path, QStringLiteral("unknown image format; use .png, .svg or .pdf"));
}

bool PlotExporter::savePng(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                           QString* error) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(plot->palette().color(QPalette::Base));
    {
        QCPPainter painter(&image);
        render(plot, painter, layoutSize(size, dpi), size, false);
    }
    // The resolution goes in the file's metadata only after painting (see render).
    const int dpm = static_cast<int>(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return fail(error, path, file.errorString());
    if (!image.save(&file, "PNG") || !file.commit())
        return fail(error, path,
                    QStringLiteral("could not write the PNG: %1").arg(file.errorString()));
    return true;
}

bool PlotExporter::saveSvg(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                           QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return fail(error, path, file.errorString());
    // In layout pixels at 96 DPI, so the picture is size / dpi inches (see render).
    const QSize layout = layoutSize(size, dpi);
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(layout);
    svg.setViewBox(QRect(QPoint(0, 0), layout));
    svg.setResolution(static_cast<int>(kBaseDpi));
    svg.setTitle(QStringLiteral("Tokenscope plot"));
    {
        QCPPainter painter;
        if (!painter.begin(&svg))
            return fail(error, path, QStringLiteral("could not start the SVG"));
        render(plot, painter, layout, layout, true);
    }
    if (!file.commit()) return fail(error, path, file.errorString());
    return true;
}

bool PlotExporter::savePdf(QCustomPlot* plot, const QString& path, QSize size, int dpi,
                           QString* error) {
    {
        // QPdfWriter reports no open errors, so try the file first.
        QSaveFile probe(path);
        if (!probe.open(QIODevice::WriteOnly)) return fail(error, path, probe.errorString());
    }
    QPdfWriter pdf(path);
    pdf.setCreator(QStringLiteral("Tokenscope"));
    pdf.setResolution(static_cast<int>(kBaseDpi));  // see render
    const QSizeF inches(static_cast<double>(size.width()) / dpi,
                        static_cast<double>(size.height()) / dpi);
    pdf.setPageSize(QPageSize(inches, QPageSize::Inch, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QCPPainter painter;
    if (!painter.begin(&pdf)) return fail(error, path, QStringLiteral("could not start the PDF"));
    const QSize layout = layoutSize(size, dpi);
    render(plot, painter, layout, layout, true);
    if (!painter.end()) return fail(error, path, QStringLiteral("could not finish the PDF"));
    return true;
}

bool PlotExporter::saveCsv(const analysis::Heatmap& map, const QString& path, QString* error) {
    std::ostringstream out;
    analysis::write_heatmap_csv(map, out);
    const std::string text = out.str();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return fail(error, path, file.errorString());
    if (file.write(text.data(), static_cast<qint64>(text.size())) !=
            static_cast<qint64>(text.size()) ||
        !file.commit())
        return fail(error, path, file.errorString());
    return true;
}

}  // namespace tokenscope::ui::plots
