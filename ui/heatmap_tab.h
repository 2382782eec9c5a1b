#pragma once

#include "run_tab.h"

class QLabel;

namespace tokenscope::ui {

// Placeholder until the heatmap view lands: says what will appear here.
class HeatmapTab : public RunTab {
    Q_OBJECT
  public:
    explicit HeatmapTab(QWidget* parent = nullptr);
    void setRun(const OpenRun& run) override;

  private:
    QLabel* label_;
};

}  // namespace tokenscope::ui
