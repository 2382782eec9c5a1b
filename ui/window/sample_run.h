#pragma once

#include <QString>
#include <QStringList>

namespace tokenscope::ui {

// Finds the bundled sample run (resources/sample.tokenscope), so a first start
// without arguments shows a populated window.
class SampleRun {
  public:
    // Installed: <prefix>/share/tokenscope next to <prefix>/bin; in a build: the source tree.
    static QStringList candidates();
    // The first existing candidate, or an empty string.
    static QString path();
};

}  // namespace tokenscope::ui
