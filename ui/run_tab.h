#pragma once

#include <QWidget>

#include "open_run.h"
#include "time_format.h"

namespace tokenscope::ui {

// A centre tab that shows the current run. The main window calls these on
// every tab, so a new view only has to implement them.
class RunTab : public QWidget {
    Q_OBJECT
  public:
    using QWidget::QWidget;
    // An invalid OpenRun means no run is open.
    virtual void setRun(const OpenRun& run) = 0;
    virtual void setUnit(TimeUnit unit) { Q_UNUSED(unit); }
};

}  // namespace tokenscope::ui
