// tokenscope [FILE [FILE2]]: one file opens it, two compare them as A and B,
// none opens the bundled sample run.
#include <QApplication>
#include <QCommandLineParser>

#include "ui/main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Tokenscope"));
    QApplication::setApplicationName(QStringLiteral("tokenscope"));
    QApplication::setApplicationVersion(QStringLiteral(TOKENSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Latency workbench for LLM decoding: timeline, P95 heatmap, breakdown, compare."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("files"),
        QStringLiteral(".tokenscope files or traces; two files are compared"),
        QStringLiteral("[FILE [FILE2]]"));
    parser.process(app);
    const QStringList files = parser.positionalArguments();

    tokenscope::ui::MainWindow window;
    window.show();
    if (files.isEmpty())
        window.openSampleRun();
    else
        window.openFiles(files, files.size() >= 2);
    return QApplication::exec();
}
