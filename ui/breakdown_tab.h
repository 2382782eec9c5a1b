#pragma once

#include "run_tab.h"

class QLabel;

namespace tokenscope::ui {

// Placeholder until the breakdown view lands: says what will appear here.
class BreakdownTab : public RunTab {
    Q_OBJECT
  public:
    explicit BreakdownTab(QWidget* parent = nullptr);
    void setRun(const OpenRun& run) override;

  private:
    QLabel* label_;
};

}  // namespace tokenscope::ui
