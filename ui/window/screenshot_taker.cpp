#include "screenshot_taker.h"

#include <QDir>
#include <QDockWidget>
#include <QPixmap>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <utility>

#include "main_window.h"
#include "ui/breakdown/breakdown_tab.h"
#include "ui/compare/compare_tab.h"
#include "ui/heatmap/heatmap_tab.h"
#include "ui/shared/run_list_model.h"
#include "ui/sweep/sweep_tab.h"
#include "ui/timeline/timeline_tab.h"
#include "ui/timeline/timeline_view.h"

namespace tokenscope::ui {
namespace {

constexpr int kPollMs = 50;
// Polls after a tab reports ready, so its repaint and any queued layout land
// in the picture.
constexpr int kSettlePolls = 4;

}  // namespace

ScreenshotTaker::ScreenshotTaker(MainWindow* window, QString dir, QObject* parent)
    : QObject(parent), window_(window), dir_(std::move(dir)), poll_(new QTimer(this)) {
    poll_->setInterval(kPollMs);
    connect(poll_, &QTimer::timeout, this, &ScreenshotTaker::poll);
    HeatmapTab* heatmap = window_->heatmapTab();
    BreakdownTab* breakdown = window_->breakdownTab();
    CompareTab* compare = window_->compareTab();
    shots_ = {
        // A large run's timeline reads its summary tiles and the activities in view in the
        // background: the picture waits for them.
        {QStringLiteral("timeline.png"), window_->timelineTab(), [this] { zoomTimeline(); },
         [this] { return !window_->timelineTab()->view()->reading(); }},
        {QStringLiteral("heatmap.png"),
         heatmap,
         {},
         [heatmap] { return !heatmap->computing() && !heatmap->statusText().contains(u'…'); }},
        {QStringLiteral("breakdown.png"),
         breakdown,
         {},
         [breakdown] { return breakdown->ready(); }},
        {QStringLiteral("compare.png"), compare,
         [this, compare] {
             RunListModel* runs = window_->runList();
             compare->compare(runs->run(0), runs->run(1));
         },
         [compare] {
             return compare->diff().has_value() && !compare->statusText().contains(u'…');
         }},
    };
}

ScreenshotTaker::~ScreenshotTaker() = default;

void ScreenshotTaker::zoomTimeline() {
    // Zoomed out, 100 ms of kernels fold into one block; a few decode steps show
    // the kernels, the copies and the step guides.
    const OpenRun& run = window_->runList()->run(0);
    std::vector<qint64> starts;
    for (const trace::Step& step : run.data->steps) starts.push_back(step.start_ns);
    std::sort(starts.begin(), starts.end());
    starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
    constexpr std::size_t kFirst = 8, kSteps = 1;
    if (starts.size() > kFirst + kSteps)
        window_->timelineTab()->view()->showRange(starts[kFirst], starts[kFirst + kSteps]);
}

void ScreenshotTaker::start() {
    if (!QDir().mkpath(dir_)) {
        fail(tr("cannot create the folder %1").arg(dir_));
        return;
    }
    connect(window_, &MainWindow::runsOpened, this, &ScreenshotTaker::onOpened);
    connect(window_, &MainWindow::errorReported, this, [this](const QString& message) {
        fail(file_.isEmpty() ? tr("the sample run did not open: %1").arg(message)
                             : tr("%1 did not open: %2").arg(file_, message));
    });
    if (!file_.isEmpty())
        window_->openFiles({file_});
    else if (!window_->openSampleRun())
        fail(window_->lastMessage());
}

void ScreenshotTaker::onOpened(int count) {
    if (done_) return;
    if (window_->runList()->rowCount() < 2) {
        if (file_.isEmpty()) {
            fail(tr("the sample holds %1 run(s); the comparison needs two").arg(count));
            return;
        }
        shots_.pop_back();  // one run of the user's: no comparison to show
    }
    // A file that holds a sweep shows it too (the tab reads it off the GUI thread).
    SweepTab* sweep = window_->sweepTab();
    if (!file_.isEmpty() && (sweep->busy() || sweep->hasSweep()))
        shots_.push_back({QStringLiteral("sweep.png"), sweep, {}, [this, sweep] {
                              if (sweep->busy()) return false;
                              if (!sweep->hasSweep()) return true;  // skipped
                              // The window adds the tab once the sweep is read: bring it up.
                              if (window_->tabs()->indexOf(sweep) < 0) return false;
                              window_->tabs()->setCurrentWidget(sweep);
                              return true;
                          }});
    // Wide enough docks that run names and the rule table are readable.
    auto* runs = window_->findChild<QDockWidget*>(QStringLiteral("runs_dock"));
    auto* attribution = window_->findChild<QDockWidget*>(QStringLiteral("attribution_dock"));
    if (runs != nullptr && attribution != nullptr)
        window_->resizeDocks({runs, attribution}, {250, 320}, Qt::Horizontal);
    current_ = 0;
    beginShot();
}

void ScreenshotTaker::beginShot() {
    const Shot& shot = shots_[current_];
    window_->tabs()->setCurrentWidget(shot.tab);
    if (shot.prepare) shot.prepare();
    settle_polls_ = 0;
    waited_.start();
    poll_->start();
}

void ScreenshotTaker::poll() {
    const Shot& shot = shots_[current_];
    if (!shot.ready()) {
        settle_polls_ = 0;
        if (waited_.elapsed() > timeout_ms_)
            fail(
                tr("%1: the tab was still busy after %2 s").arg(shot.file).arg(timeout_ms_ / 1000));
        return;
    }
    if (++settle_polls_ < kSettlePolls) return;
    poll_->stop();
    const QString path = QDir(dir_).filePath(shot.file);
    // The file turned out to hold no sweep: nothing to show, not a failure.
    const bool skip = shot.tab == window_->sweepTab() && !window_->sweepTab()->hasSweep();
    if (!skip && !window_->grab().save(path)) {
        fail(tr("cannot write %1").arg(path));
        return;
    }
    if (!skip) {
        saved_ << shot.file;
        emit pictureSaved(shot.file);
    }
    if (++current_ < shots_.size()) {
        beginShot();
        return;
    }
    done_ = true;
    // What was written, not what was planned: a sweep shot of a file without one is skipped.
    emit finished(true, tr("saved %1 pictures in %2: %3")
                            .arg(saved_.size())
                            .arg(dir_, saved_.join(QStringLiteral(", "))));
}

void ScreenshotTaker::fail(const QString& message) {
    if (done_) return;
    done_ = true;
    poll_->stop();
    emit finished(false, message);
}

}  // namespace tokenscope::ui
