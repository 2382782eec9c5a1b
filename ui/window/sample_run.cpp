#include "sample_run.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tokenscope::ui {

QStringList SampleRun::candidates() {
    const QString exe_dir = QCoreApplication::applicationDirPath();
    return {
        QDir(exe_dir).filePath(QStringLiteral("../share/tokenscope/sample.tokenscope")),
        QDir(exe_dir).filePath(QStringLiteral("sample.tokenscope")),
        QStringLiteral(TOKENSCOPE_SOURCE_DIR "/resources/sample.tokenscope"),
    };
}

QString SampleRun::path() {
    for (const QString& c : candidates())
        if (QFileInfo(c).isFile()) return QFileInfo(c).canonicalFilePath();
    return {};
}

}  // namespace tokenscope::ui
