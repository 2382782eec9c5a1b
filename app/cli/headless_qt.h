#pragma once

#include <memory>

class QApplication;

namespace tokenscope::cli {

// A QApplication for one headless render (QCustomPlot needs one; a CLI has no
// display, so Qt runs offscreen unless QT_QPA_PLATFORM says otherwise).
// It lives on the caller's stack and is destroyed there: a function-local static
// is destroyed by an exit handler after Qt's own statics are gone, and
// ~QApplication then crashed every image export on exit (status 139).
// Reuses the running application when there is one.
class HeadlessQt {
  public:
    HeadlessQt();
    ~HeadlessQt();
    HeadlessQt(const HeadlessQt&) = delete;
    HeadlessQt& operator=(const HeadlessQt&) = delete;

  private:
    std::unique_ptr<QApplication> app_;
};

}  // namespace tokenscope::cli
