#pragma once

#include <QObject>

#include "ui/plots/time_format.h"

class QAction;

namespace tokenscope::ui {

class MainWindow;
class RecentFiles;

// The main window's File and View menus. Every action goes through the window's public
// API: open (with Open Recent), new run, Prometheus, export the plot in front, units,
// quit.
class WindowMenus : public QObject {
    Q_OBJECT
  public:
    explicit WindowMenus(MainWindow* window);

    RecentFiles* recent() const { return recent_; }
    // Checks `unit` in View > Units.
    void showUnit(plots::TimeUnit unit);

  private:
    void buildFile();
    void buildView();
    // File > Open: two files chosen are compared as A and B.
    void chooseFiles();
    // The plot of the tab in front; the heatmap when no plot tab is.
    void exportPlot();

    MainWindow* window_;
    RecentFiles* recent_ = nullptr;
    QAction* unit_ms_ = nullptr;
    QAction* unit_us_ = nullptr;
};

}  // namespace tokenscope::ui
