// tokenscope [FILE [FILE2]]: one file opens it, two compare them as A and B,
// none opens the bundled sample run. --screenshots DIR [--size WxH] [FILE] saves the
// tabs of the sample, or of FILE, as PNGs of a window that size
// (docs/make_screenshots.sh) and exits. The options are in command_line.cpp.
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

#include "command_line.h"
#include "ui/window/main_window.h"
#ifdef TOKENSCOPE_HAVE_CUPTI
#include "capture/cupti/cuda_runner.h"
#endif
#include "ui/window/screenshot_taker.h"

namespace {

int take_screenshots(QApplication& app, const QString& dir, const QString& file, QSize size) {
    // Default settings, not the user's: the pictures must not depend on who made them.
    QTemporaryDir settings_dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
    tokenscope::ui::MainWindow window;
    window.resize(size);
    window.show();
    tokenscope::ui::ScreenshotTaker taker(&window, dir);
    if (!file.isEmpty()) taker.setFile(file);
    QObject::connect(&taker, &tokenscope::ui::ScreenshotTaker::finished, &app,
                     [](bool ok, const QString& message) {
                         std::fprintf(stderr, "tokenscope --screenshots: %s\n",
                                      qPrintable(message));
                         QCoreApplication::exit(ok ? 0 : 1);
                     });
    // From the event loop, so an early failure can still end it.
    QTimer::singleShot(0, &taker, &tokenscope::ui::ScreenshotTaker::start);
    return QApplication::exec();
}

}  // namespace

int main(int argc, char** argv) {
    // Help, version and man page first: QApplication aborts without a display.
    tokenscope::gui::CommandLine command_line;
    QStringList raw;
    for (int i = 0; i < argc; ++i) raw << QString::fromLocal8Bit(argv[i]);
    if (auto status = command_line.before_app(raw)) return *status;

    QApplication app(argc, argv);
#ifdef TOKENSCOPE_HAVE_CUPTI
    tokenscope::capture::cupti::install_cuda_runner();
#endif
    QApplication::setOrganizationName(QStringLiteral("Tokenscope"));
    QApplication::setApplicationName(QStringLiteral("tokenscope"));
    QApplication::setApplicationVersion(QStringLiteral(TOKENSCOPE_VERSION));
    // Again, without the options QApplication took: now errors are reported.
    if (auto status = command_line.after_app(QApplication::arguments())) return *status;
    const QStringList files = command_line.files();
    if (command_line.screenshots())
        return take_screenshots(app, command_line.screenshots_dir(),
                                files.isEmpty() ? QString() : files.first(),
                                *command_line.screenshot_size());

    tokenscope::ui::MainWindow window;
    window.show();
    if (files.isEmpty())
        window.openSampleRun();
    else
        window.openFiles(files, files.size() >= 2);
    return QApplication::exec();
}
