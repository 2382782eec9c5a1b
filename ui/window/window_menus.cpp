#include "window_menus.h"

#include <QActionGroup>
#include <QDockWidget>
#include <QMenuBar>
#include <QTabWidget>

#include "main_window.h"
#include "recent_files.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/compare/compare_tab.h"
#include "ui/fleet/fleet_tab.h"
#include "ui/heatmap/heatmap_tab.h"

namespace tokenscope::ui {

WindowMenus::WindowMenus(MainWindow* window) : QObject(window), window_(window) {
    buildFile();
    buildView();
}

void WindowMenus::buildFile() {
    QMenu* file = window_->menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &WindowMenus::chooseFiles);
    file->addAction(tr("&New Run…"), QKeySequence::New, window_, &MainWindow::newRun)
        ->setObjectName(QStringLiteral("new_run_action"));
    file->addAction(tr("Open &Prometheus…"), this,
                    [this] { window_->showFleetTab()->openDialog(); })
        ->setObjectName(QStringLiteral("open_prometheus_action"));
    recent_ = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(recent_, &RecentFiles::openRequested, this,
            [this](const QString& path) { window_->openFiles({path}); });
    file->addSeparator();
    file->addAction(tr("&Export Plot…"), QKeySequence(tr("Ctrl+E")), this,
                    &WindowMenus::exportPlot);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, window_, &QWidget::close);
}

void WindowMenus::buildView() {
    QMenu* view = window_->menuBar()->addMenu(tr("&View"));
    QMenu* units = view->addMenu(tr("&Units"));
    auto* group = new QActionGroup(this);
    unit_ms_ = units->addAction(tr("&Milliseconds (ms)"));
    unit_us_ = units->addAction(tr("Micro&seconds (us)"));
    for (QAction* a : {unit_ms_, unit_us_}) {
        a->setCheckable(true);
        group->addAction(a);
    }
    connect(unit_ms_, &QAction::triggered, this,
            [this] { window_->setUnit(plots::TimeUnit::Milliseconds); });
    connect(unit_us_, &QAction::triggered, this,
            [this] { window_->setUnit(plots::TimeUnit::Microseconds); });
    // A closed dock comes back from here (a laptop's screen may want the room).
    view->addSeparator();
    for (QDockWidget* dock : window_->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly))
        view->addAction(dock->toggleViewAction());
}

void WindowMenus::showUnit(plots::TimeUnit unit) {
    (unit == plots::TimeUnit::Milliseconds ? unit_ms_ : unit_us_)->setChecked(true);
}

void WindowMenus::chooseFiles() {
    const QStringList paths = recent_->choose(window_);
    window_->openFiles(paths, paths.size() == 2);
}

void WindowMenus::exportPlot() {
    QTabWidget* tabs = window_->tabs();
    if (tabs->currentWidget() == window_->breakdownTab()) {
        window_->breakdownTab()->exportPlot();
    } else if (tabs->currentWidget() == window_->compareTab()) {
        window_->compareTab()->exportPlot();
    } else {
        tabs->setCurrentWidget(window_->heatmapTab());
        window_->heatmapTab()->exportPlot();
    }
}

}  // namespace tokenscope::ui
