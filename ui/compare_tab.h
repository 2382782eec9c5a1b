#pragma once

#include "run_tab.h"

class QLabel;

namespace tokenscope::ui {

// Placeholder until the compare view lands: holds runs A and B and says what
// will appear. The main window calls compare() for two dropped files.
class CompareTab : public RunTab {
    Q_OBJECT
  public:
    explicit CompareTab(QWidget* parent = nullptr);
    // The current run is not what Compare shows; A and B are.
    void setRun(const OpenRun& run) override { Q_UNUSED(run); }
    void compare(const OpenRun& a, const OpenRun& b);
    const OpenRun& runA() const { return a_; }
    const OpenRun& runB() const { return b_; }

  private:
    void refresh();

    QLabel* label_;
    OpenRun a_;
    OpenRun b_;
};

}  // namespace tokenscope::ui
