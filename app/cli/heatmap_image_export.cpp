#include "heatmap_image_export.h"

#include <QApplication>
#include <QSize>
#include <QString>
#include <memory>

#include "arg_parser.h"
#include "ui/heatmap_image.h"

namespace tokenscope::cli {
namespace {

// QCustomPlot needs a QApplication; a CLI has no display, so Qt runs offscreen.
QApplication& headless_app() {
    static int argc = 1;
    static char name[] = "tokenscope-cli";
    static char* argv[] = {name, nullptr};
    static std::unique_ptr<QApplication> app;
    if (!app) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(argc, argv);
    }
    return *app;
}

}  // namespace

void export_heatmap_image(const analysis::Heatmap& map, const std::string& title,
                          const std::string& path, int width, int height, int dpi) {
    headless_app();
    QString error;
    if (!ui::render_heatmap_image(map, QString::fromStdString(title), QString::fromStdString(path),
                                  QSize(width, height), dpi, &error))
        throw UsageError{"heatmap: " + error.toStdString()};
}

}  // namespace tokenscope::cli
