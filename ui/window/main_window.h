#pragma once

#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include "load_job.h"
#include "ui/plots/time_format.h"
#include "ui/shared/open_run.h"

class QListView;
class QMessageBox;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace tokenscope::ui {

class AttributionPanel;
class BreakdownTab;
class CompareTab;
class FleetTab;
class SweepTab;
class HeatmapTab;
class LoadJob;
class RunLauncherDialog;
class RunAnalyzer;
class RunListModel;
class RunTab;
class StepPatternPanel;
class TimelineTab;
class WindowMenus;
class WindowStatus;

// Runs on the left, the Timeline/Heatmap/Breakdown/Compare tabs in the centre,
// attribution on the right, progress and errors in the status bar. Files open
// in the background (LoadJob); the GUI thread never waits for one.
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens files in the background, one job after another. With `compare`, the
    // first two runs opened become A and B of the comparison.
    void openFiles(const QStringList& paths, bool compare = false);
    // Opens the file of the run(s) at `path` again, in the background, its steps framed
    // by `step_pattern` (a regex; the Step pattern field of the Breakdown tab and the
    // Attribution dock): its runs are replaced in the list, the others kept. A joined or
    // merged run (paths joined by " + ") opens its files again as one.
    void reopenWithStepPattern(const QString& path, const QString& step_pattern);
    // Opens the bundled sample; without one, shows a hint and returns false.
    bool openSampleRun();
    // File > New Run: opens the run launcher (not modal to the event loop); the
    // run it finishes opens here. Returns the dialog, which deletes itself on close.
    RunLauncherDialog* newRun();
    // The Fleet tab (File > Open Prometheus…), made on first use and brought to front.
    FleetTab* showFleetTab();

    plots::TimeUnit unit() const { return unit_; }
    void setUnit(plots::TimeUnit unit);
    QString lastMessage() const;
    // A file is opening or queued (busy) / a tab's background query runs (computing).
    bool busy() const;
    bool computing() const;
    QProgressBar* progressBar() const;
    QPushButton* cancelButton() const;
    // What the status bar says is running, next to the progress bar.
    QString taskText() const;

    // Runs of at least this many activities, from a .tokenscope file with summaries, open
    // without their activities and paint from the file (TimelineView::kSummaryThreshold by
    // default); tests set a small one. From the next open on.
    void setLargeRunThreshold(std::size_t activities);

    RunListModel* runList() const { return runs_; }
    QListView* runListView() const { return run_view_; }
    QTabWidget* tabs() const { return tabs_; }
    TimelineTab* timelineTab() const { return timeline_; }
    HeatmapTab* heatmapTab() const { return heatmap_; }
    BreakdownTab* breakdownTab() const { return breakdown_; }
    CompareTab* compareTab() const { return compare_; }
    SweepTab* sweepTab() const { return sweep_; }
    AttributionPanel* attributionPanel() const { return attribution_; }
    // The producer of every view's analyses and heatmaps (the current run's for the
    // Breakdown tab and the Attribution dock, A and B for Compare).
    RunAnalyzer* analyzer() const { return analyzer_; }
    // The box that said why the last file did not open (nullptr before any failure).
    QMessageBox* errorBox() const;

    // The runs list's menu for `row`: Set as A, Set as B, Compare with (each other open
    // run). The caller shows and deletes it.
    QMenu* runMenu(int row);
    // Where the window's size and dock layout are kept: "window/WxH", the available
    // size of the screen it is on.
    QString screenKey() const;

  signals:
    void compareRequested(const QString& a, const QString& b);
    void errorReported(const QString& message);
    // Every run of one open request is in the runs list.
    void runsOpened(int count);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

  private:
    enum class Mode { Open, Compare, CompareWithCurrent, Reopen };
    struct Request {
        QStringList paths;
        Mode mode = Mode::Open;
        LoadJob::Combine combine = {};  // a join or a merge (DropPlan); empty: open each file
        QString step_pattern = {};      // empty: the iteration presets
        QString replaces = {};          // Reopen: the path of the runs it replaces
    };

    void buildDocks();
    void restoreSettings();
    void fitToScreen();
    void startNext();
    void showQueries();
    void cancelCurrent();
    void onLoaded(const QList<OpenRun>& runs);
    void onFailed(const QString& message);
    void reportOpenError(const QStringList& paths, const QString& problem);
    void onReopened(const QList<OpenRun>& runs);
    void showMessage(const QString& text, bool error);
    void setCurrentRow(int row);
    void selectRows(int first, int second);
    void openLaunchedRun(const QString& file, qint64 run_id);
    void buildSweepTab();
    void selectRun(const QString& file, qint64 run_id);
    bool droppedOnCompare(QPoint pos) const;
    QList<RunTab*> runTabs() const;
    QList<StepPatternPanel*> stepPatternPanels() const;

    RunListModel* runs_;
    QListView* run_view_ = nullptr;
    QTabWidget* tabs_;
    TimelineTab* timeline_;
    HeatmapTab* heatmap_;
    BreakdownTab* breakdown_;
    CompareTab* compare_;
    FleetTab* fleet_ = nullptr;
    SweepTab* sweep_ = nullptr;  // in tabs_ once an opened file holds a sweep
    AttributionPanel* attribution_ = nullptr;
    RunAnalyzer* analyzer_ = nullptr;
    LoadJob* job_;
    WindowStatus* status_ = nullptr;  // message, task, progress and Cancel
    WindowMenus* menus_ = nullptr;    // File and View
    QList<Request> queue_;
    Request active_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
    int current_row_ = -1;
    std::shared_ptr<const trace::RunData> shown_;  // current_row_'s data, in every view
    QPointer<QMessageBox> error_box_;
    bool replacing_ = false;  // runs being replaced: the list's transient rows are not shown
};

}  // namespace tokenscope::ui
