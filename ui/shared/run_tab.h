#pragma once

#include <QString>
#include <QWidget>

#include "open_run.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// A centre tab that shows the current run. The main window calls these on
// every tab, so a new view only has to implement them.
class RunTab : public QWidget {
    Q_OBJECT
  public:
    using QWidget::QWidget;
    // An invalid OpenRun means no run is open.
    virtual void setRun(const OpenRun& run) = 0;
    virtual void setUnit(plots::TimeUnit unit) { Q_UNUSED(unit); }
    // A tab with a long background query reports it here, so the main window can
    // show it in the status bar and offer Cancel.
    virtual bool queryBusy() const { return false; }
    // What the running query does, e.g. "Computing the heatmap…".
    virtual QString queryText() const { return {}; }

  public slots:
    // Drops the running query: its result is discarded when it arrives.
    virtual void cancelQuery() {}

  signals:
    void busyChanged(bool busy, const QString& what);
};

}  // namespace tokenscope::ui
