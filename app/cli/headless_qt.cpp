#include "headless_qt.h"

#include <QApplication>

namespace tokenscope::cli {

HeadlessQt::HeadlessQt() {
    if (QCoreApplication::instance() != nullptr) return;
    // QApplication keeps references to argc and argv for its whole life.
    static int argc = 1;
    static char name[] = "tokenscope-cli";
    static char* argv[] = {name, nullptr};
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    app_ = std::make_unique<QApplication>(argc, argv);
}

HeadlessQt::~HeadlessQt() = default;

}  // namespace tokenscope::cli
