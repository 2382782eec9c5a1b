#include "main_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <algorithm>
#include <memory>

#include "drop_plan.h"
#include "load_job.h"
#include "recent_files.h"
#include "sample_run.h"
#include "ui/breakdown/attribution_panel.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/breakdown/step_pattern_panel.h"
#include "ui/breakdown/token_table.h"
#include "ui/compare/compare_tab.h"
#include "ui/fleet/fleet_tab.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/launcher/run_launcher_dialog.h"
#include "ui/shared/gui_words.h"
#include "ui/shared/run_analyzer.h"
#include "ui/shared/run_list_model.h"
#include "ui/shared/run_title.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"
#include "window_menus.h"
#include "window_status.h"

namespace tokenscope::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      runs_(new RunListModel(this)),
      tabs_(new QTabWidget(this)),
      timeline_(new TimelineTab(this)),
      heatmap_(new HeatmapTab(this)),
      breakdown_(new BreakdownTab(this)),
      compare_(new CompareTab(this)),
      job_(new LoadJob(this)) {
    setWindowTitle(QStringLiteral("Tokenscope"));
    setAcceptDrops(true);
    // Docks share a side as tabs when dropped on each other, and split when dropped beside.
    setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
    tabs_->addTab(timeline_, tr("Timeline"));
    tabs_->addTab(heatmap_, tr("Heatmap"));
    tabs_->addTab(breakdown_, tr("Breakdown"));
    tabs_->addTab(compare_, tr("Compare"));
    setCentralWidget(tabs_);
    buildDocks();
    // One analysis per opened run, one heatmap per (run, spec) (hotspot's one producer,
    // many views).
    analyzer_ = new RunAnalyzer(this);
    breakdown_->useAnalyzer(analyzer_);
    attribution_->useAnalyzer(analyzer_);
    heatmap_->useAnalyzer(analyzer_);
    compare_->useAnalyzer(analyzer_);
    compare_->setRunList(runs_);
    menus_ = new WindowMenus(this);
    status_ = new WindowStatus(statusBar());
    connect(status_, &WindowStatus::cancelRequested, this, &MainWindow::cancelCurrent);
    buildSweepTab();

    connect(job_, &LoadJob::progress, status_, &WindowStatus::showProgress);
    // Loading owns the progress bar while it runs; then the tabs' queries show there.
    for (RunTab* tab : runTabs())
        connect(tab, &RunTab::busyChanged, this, [this] {
            if (!job_->running()) showQueries();
        });
    connect(job_, &LoadJob::finished, this, &MainWindow::onLoaded);
    connect(job_, &LoadJob::failed, this, &MainWindow::onFailed);
    connect(job_, &LoadJob::cancelled, this, [this] {
        showMessage(tr("Opening cancelled; the open runs are unchanged."), false);
        if (active_.mode == Mode::Reopen)
            for (StepPatternPanel* panel : stepPatternPanels())
                if (panel->path() == active_.replaces)
                    panel->showError(tr("Cancelled; the run is unchanged."));
        startNext();
    });
    // Apply in the step-pattern panel (a run without steps): the file opens again.
    for (StepPatternPanel* panel : stepPatternPanels())
        connect(panel, &StepPatternPanel::applyRequested, this, &MainWindow::reopenWithStepPattern);
    TimelineView* view = timeline_->view();
    connect(view, &TimelineView::rangeSelected, attribution_, &AttributionPanel::selectRange);
    connect(view, &TimelineView::selectionCleared, attribution_, &AttributionPanel::clearSelection);
    connect(view, &TimelineView::detailsChanged, attribution_, &AttributionPanel::showDetails);
    // A heatmap cell jumps the timeline to its window.
    connect(heatmap_, &HeatmapTab::cellActivated, this, [this](qint64 t0, qint64 t1) {
        timeline_->view()->showRange(t0, t1);
        tabs_->setCurrentWidget(timeline_);
    });
    // A joined run's token (a heatmap cell, a row of the breakdown's token table) opens
    // the timeline on its iteration and kernels.
    auto show_token = [this](int step) {
        if (timeline_->selectToken(step)) tabs_->setCurrentWidget(timeline_);
    };
    connect(heatmap_, &HeatmapTab::tokenActivated, this, show_token);
    connect(breakdown_->tokenTable(), &TokenTable::tokenActivated, this, show_token);
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
    run_view_ = new QListView(this);
    run_view_->setModel(runs_);
    run_view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    run_view_->setAlternatingRowColors(true);
    // Names elide in the middle (both the workload and the GPU stay), never a sideways
    // scroll bar; the tooltip has the whole name and path.
    run_view_->setTextElideMode(Qt::ElideMiddle);
    run_view_->setWordWrap(false);
    run_view_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Set as A / Set as B / Compare with: any two open runs, two runs of one file too.
    run_view_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(run_view_, &QListView::customContextMenuRequested, this, [this](QPoint pos) {
        const QModelIndex index = run_view_->indexAt(pos);
        if (!index.isValid()) return;
        QMenu* menu = runMenu(index.row());
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(run_view_->viewport()->mapToGlobal(pos));
    });
    connect(run_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (!replacing_) setCurrentRow(current.isValid() ? current.row() : -1);
            });
    auto* runs_dock = new QDockWidget(tr("Runs"), this);
    runs_dock->setObjectName(QStringLiteral("runs_dock"));
    runs_dock->setWidget(run_view_);
    run_view_->setMinimumWidth(160);
    addDockWidget(Qt::LeftDockWidgetArea, runs_dock);

    attribution_ = new AttributionPanel(this);
    // Narrower than this, the verdict's sentences wrap into fragments.
    attribution_->setMinimumWidth(240);
    // A long verdict scrolls inside the dock rather than making the window taller than
    // a laptop's screen.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("attribution_scroll"));
    scroll->setWidget(attribution_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* right = new QDockWidget(tr("Attribution"), this);
    right->setObjectName(QStringLiteral("attribution_dock"));
    right->setWidget(scroll);
    addDockWidget(Qt::RightDockWidgetArea, right);
    resizeDocks({runs_dock, right}, {220, 300}, Qt::Horizontal);
}

QMenu* MainWindow::runMenu(int row) {
    auto* menu = new QMenu(this);
    if (row < 0 || row >= runs_->rowCount()) return menu;
    const OpenRun run = runs_->run(row);
    auto show_compare = [this] { tabs_->setCurrentWidget(compare_); };
    menu->addAction(tr("Set as &A"), this, [this, run, show_compare] {
        compare_->setRunA(run);
        show_compare();
    });
    menu->addAction(tr("Set as &B"), this, [this, run, show_compare] {
        compare_->setRunB(run);
        show_compare();
    });
    QMenu* with = menu->addMenu(tr("&Compare with"));
    for (int other = 0; other < runs_->rowCount(); ++other) {
        if (other == row) continue;
        const OpenRun b = runs_->run(other);
        with->addAction(
            QStringLiteral("%1 \u2014 %2").arg(RunTitle::of(b), QFileInfo(b.path).fileName()), this,
            [this, run, b, show_compare] {
                compare_->compare(run, b);
                show_compare();
            });
    }
    with->setEnabled(!with->isEmpty());
    return menu;
}

QString MainWindow::screenKey() const {
    const QScreen* where = screen();
    const QSize size = where ? where->availableGeometry().size() : QSize();
    return QStringLiteral("window/%1x%2").arg(size.width()).arg(size.height());
}

// The first start on a screen of this size: most of its free area, centred; a size
// the user left on another screen (a laptop's on a desktop monitor) is not reused.
void MainWindow::fitToScreen() {
    const QScreen* where = screen();
    if (where == nullptr) return resize(1280, 800);
    const QRect free = where->availableGeometry();
    // Room for the title bar and frame the window manager adds around it.
    const QSize size(std::max(std::min(free.width() - 16, free.width() * 94 / 100), 320),
                     std::max(std::min(free.height() - 48, free.height() * 92 / 100), 240));
    resize(size);
    move(free.center() - QPoint(size.width() / 2, (size.height() + 32) / 2));
}

void MainWindow::restoreSettings() {
    QSettings settings;
    const QString key = screenKey();
    const QByteArray geometry = settings.value(key + QStringLiteral("/geometry")).toByteArray();
    if (geometry.isEmpty() || !restoreGeometry(geometry)) fitToScreen();
    restoreState(settings.value(key + QStringLiteral("/state")).toByteArray());
    setUnit(plots::TimeFormat::from_settings(
        settings.value(QStringLiteral("view/unit"), QStringLiteral("ms")).toString()));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Per screen size: a window laid out on a desktop monitor does not come back at that
    // size on the laptop's screen, nor the laptop's on the monitor.
    QSettings settings;
    const QString key = screenKey();
    settings.setValue(key + QStringLiteral("/geometry"), saveGeometry());
    settings.setValue(key + QStringLiteral("/state"), saveState());
    job_->cancel();
    for (RunTab* tab : runTabs()) tab->cancelQuery();
    QMainWindow::closeEvent(event);
}

void MainWindow::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    menus_->showUnit(unit);
    QSettings().setValue(QStringLiteral("view/unit"), plots::TimeFormat::to_settings(unit));
    for (RunTab* tab : runTabs()) tab->setUnit(unit);
    attribution_->setUnit(unit);
}

FleetTab* MainWindow::showFleetTab() {
    if (!fleet_) {
        fleet_ = new FleetTab(this);
        tabs_->addTab(fleet_, tr("Fleet"));
    }
    tabs_->setCurrentWidget(fleet_);
    return fleet_;
}

// Made at once but shown only once an opened file holds a sweep: the tab reads the
// file itself, in the background, after the runs are in the list.
void MainWindow::buildSweepTab() {
    sweep_ = new SweepTab(this);
    sweep_->hide();
    connect(sweep_, &SweepTab::sweepLoaded, this, [this](bool has_sweep) {
        if (has_sweep && tabs_->indexOf(sweep_) < 0) tabs_->addTab(sweep_, tr("Sweep"));
    });
    connect(sweep_, &SweepTab::runRequested, this, &MainWindow::selectRun);
}

// A sweep point's run is already in the list (its file was opened): select it.
void MainWindow::selectRun(const QString& file, qint64 run_id) {
    for (int row = 0; row < runs_->rowCount(); ++row) {
        const OpenRun& run = runs_->run(row);
        if (run.path == file && run.data->info.id == run_id) {
            selectRows(row, -1);
            return;
        }
    }
    showMessage(tr("Run %1 of %2 is not open").arg(run_id).arg(file), true);
}

QList<RunTab*> MainWindow::runTabs() const {
    return {timeline_, heatmap_, breakdown_, compare_};
}

QList<StepPatternPanel*> MainWindow::stepPatternPanels() const {
    return {breakdown_->stepPatternPanel(), attribution_->stepPatternPanel()};
}

void MainWindow::setLargeRunThreshold(std::size_t activities) {
    job_->setLeaveActivitiesFrom(static_cast<std::int64_t>(activities));
    timeline_->view()->setSummaryThreshold(activities);
}

QString MainWindow::lastMessage() const {
    return status_->message();
}

bool MainWindow::busy() const {
    return job_->running() || !queue_.isEmpty();
}

bool MainWindow::computing() const {
    for (RunTab* tab : runTabs())
        if (tab->queryBusy()) return true;
    return false;
}

QString MainWindow::taskText() const {
    return status_->taskText();
}

QProgressBar* MainWindow::progressBar() const {
    return status_->progressBar();
}

QPushButton* MainWindow::cancelButton() const {
    return status_->cancelButton();
}

void MainWindow::showQueries() {
    QStringList what;
    for (RunTab* tab : runTabs())
        if (tab->queryBusy()) what << tab->queryText();
    status_->showQueries(what);
}

// One Cancel button: the file being opened first, else every running query.
void MainWindow::cancelCurrent() {
    if (job_->running()) {
        job_->cancel();
        return;
    }
    for (RunTab* tab : runTabs())
        if (tab->queryBusy()) tab->cancelQuery();
}

void MainWindow::openFiles(const QStringList& paths, bool compare) {
    if (paths.isEmpty()) return;
    queue_.append(Request{paths, compare && paths.size() >= 2 ? Mode::Compare : Mode::Open});
    if (!job_->running()) startNext();
}

void MainWindow::reopenWithStepPattern(const QString& path, const QString& step_pattern) {
    if (path.isEmpty()) return;
    Request request{{path}, Mode::Reopen, {}, step_pattern, path};
    // A joined or merged run: its files, combined again as when they were dropped.
    const QStringList parts = path.split(QStringLiteral(" + "));
    if (parts.size() > 1 && !QFileInfo::exists(path)) {
        const DropPlan plan = DropPlan::decide(parts);
        if (plan.combine()) {
            request.paths = plan.paths();
            request.combine = plan.combine();
        }
    }
    queue_.append(request);
    if (!job_->running()) startNext();
}

bool MainWindow::openSampleRun() {
    const QString sample = SampleRun::path();
    if (sample.isEmpty()) {
        const QString text =
            tr("No sample run found (looked in %1). Open a file with File > Open, or drop one on "
               "this window.")
                .arg(SampleRun::candidates().join(QStringLiteral(", ")));
        showMessage(text, false);
        if (current_row_ < 0) timeline_->view()->setEmptyText(text);
        return false;
    }
    openFiles({sample});
    return true;
}

RunLauncherDialog* MainWindow::newRun() {
    auto* dialog = new RunLauncherDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RunLauncherDialog::runFinished, this, &MainWindow::openLaunchedRun);
    connect(dialog, &RunLauncherDialog::sweepFinished, sweep_, &SweepTab::revealWhenLoaded);
    dialog->open();
    return dialog;
}

void MainWindow::openLaunchedRun(const QString& file, qint64 run_id) {
    // The file may hold older runs too: select the new one once it is in the list.
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = connect(this, &MainWindow::runsOpened, this, [this, once, file, run_id] {
        for (int row = runs_->rowCount() - 1; row >= 0; --row) {
            const OpenRun& run = runs_->run(row);
            if (run.path == file && run.data->info.id == run_id) {
                disconnect(*once);
                selectRows(row, -1);
                // What was just made, from the start: its timeline, whatever tab was in front.
                tabs_->setCurrentWidget(timeline_);
                return;
            }
        }
    });
    openFiles({file});
}

void MainWindow::startNext() {
    if (queue_.isEmpty()) {
        showQueries();
        return;
    }
    active_ = queue_.takeFirst();
    status_->showTask(tr("Opening…"));
    showMessage(tr("Opening %1…").arg(active_.paths.join(QStringLiteral(", "))), false);
    if (active_.mode == Mode::Reopen)
        for (StepPatternPanel* panel : stepPatternPanels())
            if (panel->path() == active_.replaces) panel->setReopening(active_.step_pattern);
    job_->start(active_.paths, active_.combine, active_.step_pattern);
}

void MainWindow::onLoaded(const QList<OpenRun>& runs) {
    if (active_.mode == Mode::Reopen) return onReopened(runs);
    const OpenRun current = current_row_ >= 0 ? runs_->run(current_row_) : OpenRun{};
    const int first = runs_->append(runs);
    menus_->recent()->add(active_.paths);
    QStringList shown;  // "/a/../b" as the user reads it: "/b"
    for (const QString& path : active_.paths)
        shown << QDir::toNativeSeparators(QDir::cleanPath(path));
    const QString from = shown.join(QStringLiteral(", "));
    showMessage(runs.size() == 1 ? tr("Opened 1 run from %1").arg(from)
                                 : tr("Opened %1 runs from %2").arg(runs.size()).arg(from),
                false);
    if (active_.mode == Mode::Compare && runs.size() >= 2) {
        // The first run of each file: a file may hold several runs.
        int second = first + 1;
        for (int i = 0; i < runs.size(); ++i)
            if (runs[i].path == active_.paths.value(1)) {
                second = first + i;
                break;
            }
        const OpenRun& b = runs_->run(second);
        selectRows(first, second);
        compare_->compare(runs_->run(first), b);
        tabs_->setCurrentWidget(compare_);
        emit compareRequested(active_.paths.value(0), active_.paths.value(1, b.path));
    } else if (active_.mode == Mode::CompareWithCurrent && current.valid()) {
        selectRows(runs_->find_path(current.path), first);
        compare_->compare(current, runs_->run(first));
        tabs_->setCurrentWidget(compare_);
        emit compareRequested(current.path, active_.paths.value(0));
    } else {
        selectRows(first, -1);
    }
    sweep_->openFiles(active_.paths);
    emit runsOpened(static_cast<int>(runs.size()));
    startNext();
}

// The runs of one file, opened again with a step pattern, take the old ones' rows.
void MainWindow::onReopened(const QList<OpenRun>& runs) {
    replacing_ = true;  // the rows in between removing and inserting are not shown
    const int first = runs_->replace(active_.replaces, runs);
    replacing_ = false;
    std::size_t steps = 0;
    for (const OpenRun& run : runs) steps += run.data->steps.size();
    const QString from = QDir::toNativeSeparators(QDir::cleanPath(active_.replaces));
    const QString found = steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps);
    showMessage(steps > 0 ? tr("Opened %1 again with the step pattern %2: %3")
                                .arg(from, active_.step_pattern, found)
                          : tr("Opened %1 again: no marker matched the step pattern %2")
                                .arg(from, active_.step_pattern),
                false);
    selectRows(first, -1);
    // The same row may be current again: the views still show the old run then.
    if (current_row_ != first || shown_ != runs_->run(first).data) setCurrentRow(first);
    emit runsOpened(static_cast<int>(runs.size()));
    startNext();
}

void MainWindow::onFailed(const QString& message) {
    const QString problem = GuiWords::fromCli(message);
    if (active_.mode == Mode::Reopen) {
        for (StepPatternPanel* panel : stepPatternPanels())
            if (panel->path() == active_.replaces) panel->showError(problem);
    } else {
        reportOpenError(active_.paths, problem);
    }
    showMessage(tr("Could not open: %1").arg(problem), true);
    emit errorReported(message);
    startNext();
}

QMessageBox* MainWindow::errorBox() const {
    return error_box_;
}

// Not only the status bar: a message box naming the file and the problem, and while no run
// is shown, the same in the timeline's canvas instead of "No run open".
void MainWindow::reportOpenError(const QStringList& paths, const QString& problem) {
    QStringList files, names;
    for (const QString& path : paths) {
        files << QDir::toNativeSeparators(QDir::cleanPath(path));
        names << QFileInfo(path).fileName();
    }
    // The importers' messages often start with the path; it is said once, above them.
    QString why = problem;
    for (const QString& path : paths + files)
        if (why.startsWith(path + QStringLiteral(": "))) why = why.mid(path.size() + 2);
    if (!error_box_) {
        error_box_ = new QMessageBox(this);
        error_box_->setObjectName(QStringLiteral("openErrorBox"));
        error_box_->setIcon(QMessageBox::Warning);
        error_box_->setStandardButtons(QMessageBox::Ok);
        error_box_->setWindowModality(Qt::WindowModal);
        error_box_->setTextFormat(Qt::RichText);
    }
    error_box_->setWindowTitle(tr("Could not open %1").arg(names.join(QStringLiteral(", "))));
    error_box_->setText(
        tr("<b>Could not open %1</b><br><br>%2")
            .arg(files.join(QStringLiteral(", ")).toHtmlEscaped(), why.toHtmlEscaped()));
    error_box_->open();
    if (current_row_ < 0)
        timeline_->view()->setEmptyText(
            tr("Could not open %1:\n%2\n\nOpen another file with File > Open (Ctrl+O) or drop "
               "one on this window.")
                .arg(files.join(QStringLiteral(", ")), why));
}

void MainWindow::showMessage(const QString& text, bool error) {
    status_->showMessage(text, error);
}

void MainWindow::selectRows(int first, int second) {
    auto* sel = run_view_->selectionModel();
    sel->clearSelection();
    if (second >= 0) sel->select(runs_->index(second), QItemSelectionModel::Select);
    if (first >= 0) sel->setCurrentIndex(runs_->index(first), QItemSelectionModel::Select);
}

void MainWindow::setCurrentRow(int row) {
    current_row_ = row;
    const OpenRun run = row >= 0 ? runs_->run(row) : OpenRun{};
    shown_ = run.data;
    for (RunTab* tab : runTabs()) tab->setRun(run);
    attribution_->setRun(run);
    setWindowTitle(run.valid() ? QStringLiteral("%1 — Tokenscope").arg(run.name())
                               : QStringLiteral("Tokenscope"));
}

bool MainWindow::droppedOnCompare(QPoint pos) const {
    const QPoint in_bar = tabs_->tabBar()->mapFrom(this, pos);
    if (tabs_->tabBar()->rect().contains(in_bar))
        return tabs_->tabBar()->tabAt(in_bar) == tabs_->indexOf(compare_);
    return tabs_->currentWidget() == compare_ &&
           compare_->rect().contains(compare_->mapFrom(this, pos));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!DropPlan::paths_of(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList paths = DropPlan::paths_of(event->mimeData());
    if (paths.isEmpty()) return;
    event->acceptProposedAction();
    const bool on_compare = droppedOnCompare(event->position().toPoint()) && current_row_ >= 0;
    const DropPlan plan = paths.size() == 1 ? DropPlan{} : DropPlan::decide(paths);
    const auto mode = paths.size() == 1 ? (on_compare ? Mode::CompareWithCurrent : Mode::Open)
                                        : (plan.combine() ? Mode::Open : Mode::Compare);
    queue_.append(Request{plan.combine() ? plan.paths() : paths, mode, plan.combine()});
    if (!job_->running()) startNext();
}

}  // namespace tokenscope::ui
