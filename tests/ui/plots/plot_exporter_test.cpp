// Export: plots::render_heatmap_image (the CLI's headless entry) and plots::PlotExporter write
// PNG, SVG and PDF at the requested size; bad requests fail naming the file.
#include <QFile>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include "analysis/heatmap/heatmap.h"
#include "ui/plots/heatmap_image.h"
#include "ui/plots/plot_exporter.h"

using namespace tokenscope;

namespace {

// 3 rows x 4 windows of 1 ms; row "b" has a blank window.
analysis::Heatmap small_heatmap() {
    analysis::Heatmap map;
    map.spec.rows = analysis::HeatmapRows::Phase;
    map.row_labels = {"a", "b", "c"};
    for (int c = 0; c < 4; ++c) map.columns.push_back({c * 1'000'000LL, (c + 1) * 1'000'000LL});
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 4; ++c) {
            analysis::HeatmapCell cell;
            if (!(r == 1 && c == 2)) cell = {1e5 * (1 + r * 4 + c), 3};
            map.cells.push_back(cell);
        }
    analysis::finish_heatmap(map);
    return map;
}

QByteArray head(const QString& path, int n) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

}  // namespace

class PlotExporterTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

  private slots:
    void pngHasTheRequestedPixelsAndDpi() {
        const QString path = dir_.filePath(QStringLiteral("map.png"));
        QString error;
        QVERIFY2(ui::plots::render_heatmap_image(small_heatmap(), QStringLiteral("title"), path,
                                                 QSize(1200, 800), 192, &error),
                 qPrintable(error));
        const QImage image(path);
        QVERIFY(!image.isNull());
        // Size is pixels; DPI is the resolution (192 dpi = 7559 dots per metre).
        QCOMPARE(image.size(), QSize(1200, 800));
        QCOMPARE(image.dotsPerMeterX(), 7559);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    void svgIsXmlWithAnSvgRoot() {
        const QString path = dir_.filePath(QStringLiteral("map.svg"));
        QString error;
        QVERIFY2(ui::plots::render_heatmap_image(small_heatmap(), QStringLiteral("title"), path,
                                                 QSize(900, 600), 96, &error),
                 qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QString root;
        while (!xml.atEnd() && root.isEmpty())
            if (xml.readNext() == QXmlStreamReader::StartElement) root = xml.name().toString();
        QCOMPARE(root, QStringLiteral("svg"));
        while (!xml.atEnd()) xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        // The row labels are text in the vector file.
        QVERIFY(f.size() > 1000);
    }

    void pdfStartsWithItsMagic() {
        const QString path = dir_.filePath(QStringLiteral("map.pdf"));
        QString error;
        QVERIFY2(ui::plots::render_heatmap_image(small_heatmap(), QStringLiteral("title"), path,
                                                 QSize(1600, 1000), 300, &error),
                 qPrintable(error));
        QCOMPARE(head(path, 5), QByteArray("%PDF-"));
    }

    void emptyHeatmapStillRenders() {
        const QString path = dir_.filePath(QStringLiteral("empty.png"));
        QString error;
        QVERIFY2(ui::plots::render_heatmap_image(analysis::Heatmap{}, QStringLiteral("empty"), path,
                                                 QSize(400, 300), 96, &error),
                 qPrintable(error));
        QCOMPARE(QImage(path).size(), QSize(400, 300));
    }

    void badRequestsNameTheFile() {
        QString error;
        const QString txt = dir_.filePath(QStringLiteral("map.txt"));
        QVERIFY(!ui::plots::render_heatmap_image(small_heatmap(), {}, txt, QSize(800, 600), 96,
                                                 &error));
        QVERIFY(error.contains(txt));
        QVERIFY(error.contains(QStringLiteral(".png")));
        // 400 x 300 px at 600 DPI leaves 64 x 48 layout pixels: too small to draw.
        const QString png = dir_.filePath(QStringLiteral("tiny.png"));
        QVERIFY(!ui::plots::render_heatmap_image(small_heatmap(), {}, png, QSize(400, 300), 600,
                                                 &error));
        QVERIFY(error.contains(png));
        QVERIFY(!QFile::exists(png));
        const QString nowhere = dir_.filePath(QStringLiteral("no/such/dir/map.png"));
        QVERIFY(!ui::plots::render_heatmap_image(small_heatmap(), {}, nowhere, QSize(800, 600), 96,
                                                 &error));
        QVERIFY(error.contains(nowhere));
    }

    void layoutSizeScalesWithDpi() {
        // 96 DPI: one layout pixel per image pixel; 192 DPI: half as many layout pixels.
        QCOMPARE(ui::plots::PlotExporter::layoutSize(QSize(1200, 800), 96), QSize(1200, 800));
        QCOMPARE(ui::plots::PlotExporter::layoutSize(QSize(1200, 800), 192), QSize(600, 400));
        QCOMPARE(ui::plots::PlotExporter::layoutSize(QSize(1000, 1000), 300), QSize(320, 320));
        QCOMPARE(ui::plots::PlotExporter::formatOf(QStringLiteral("A.PDF")),
                 ui::plots::PlotExporter::Format::Pdf);
        QCOMPARE(ui::plots::PlotExporter::formatOf(QStringLiteral("a.jpg")),
                 ui::plots::PlotExporter::Format::Unknown);
    }
};

QTEST_MAIN(PlotExporterTest)
#include "plot_exporter_test.moc"
