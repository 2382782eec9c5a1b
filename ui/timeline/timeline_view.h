#pragma once

#include <QWidget>
#include <memory>
#include <optional>

class QMenu;

#include <cstddef>

#include "timeline_hit_test.h"
#include "timeline_scene.h"
#include "ui/shared/open_run.h"

namespace tokenscope::analysis {
class Classifier;
}

namespace tokenscope::ui {

class ActivityWindow;
class SummaryTiles;

// The Tracy-like timeline: one row per lane, its own painting. Wheel zooms at
// the cursor, drag pans, shift+drag or right-drag selects a range; +/-, W/S zoom,
// arrows and A/D pan, Home fits. Hover shows a tooltip and links an API call
// with the work it launched.
class TimelineView : public QWidget {
    Q_OBJECT
  public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    void setRun(const OpenRun& run);
    // A run of at least this many activities, read from a file with summaries (DESIGN.md
    // section 17), paints zoomed out from them (SummaryTiles) instead of its activities.
    static constexpr std::size_t kSummaryThreshold = 5'000'000;
    // Another threshold, from the next setRun on (tests).
    void setSummaryThreshold(std::size_t activities) { summary_threshold_ = activities; }
    // The run's summaries; nullptr when it paints from its activities alone.
    SummaryTiles* summaryTiles() const { return summaries_.get(); }
    // What a zoomed-in view reads of a run whose activities stayed in its file
    // (trace::RunData::in_file); nullptr for a run in memory.
    ActivityWindow* activityWindow() const { return window_.get(); }
    // Summary tiles or activities the last frame asked for are still being read (a frame
    // painted now would lack them): what a screenshot waits for.
    bool reading() const;
    const OpenRun& run() const { return run_; }
    void setUnit(plots::TimeUnit unit);
    // Rows showing lanes (the step track not counted).
    int laneRowCount() const;
    int plotWidth() const;
    const TimelineViewport& viewport() const { return scene_.viewport; }
    const TimelineScene& scene() const { return scene_; }

    // Zooms by `factor` (> 1 in) keeping the time under plot x fixed.
    void zoomAt(double plot_x, double factor);
    void fitAll();
    void showRange(qint64 t0, qint64 t1);
    void selectRange(qint64 t0, qint64 t1);
    void clearSelection();
    // Shows a search match: opens its group, shows its nesting level, zooms so it is a
    // third of the view (unless it is already a readable width), centres it, scrolls to
    // its row and highlights it.
    void reveal(std::size_t activity);
    // The same for a match named by its lane and time (FileSearch, a run whose activities
    // stayed in its file): shown once the activities there are read.
    void revealAt(int lane, qint64 start_ns, qint64 end_ns);
    // What the view says while no run is shown (how to open one; why one did not open).
    void setEmptyText(const QString& text);
    QString emptyText() const { return scene_.empty_text; }
    // No search match highlighted (the search box was cleared).
    void clearMatch();
    // Nesting rows shown for `lane` (its menu: Levels shown); remembered by the lane's
    // name, so the same lane of another run opens the same way. `rows` <= 0: the default.
    void setDepthLimit(int lane, int rows);
    int depthLimit(int lane) const;
    // The menu of the lane at a right click without a drag: its levels. The caller shows
    // and deletes it; nullptr where there is no lane.
    QMenu* laneMenu(int lane);
    // The lane drawn at widget position pos (label column or plot), or -1.
    int laneAt(QPoint pos) const;
    // What hovering the label column shows: the lane's whole name and its levels.
    QString laneToolTip(int lane) const;
    // The activity drawn at widget position pos, or TimelineScene::kNone.
    std::size_t activityAt(QPoint pos) const;
    // Hover as the mouse would: sets the hovered activity and its correlated partner.
    void hoverAt(QPoint pos);
    QString describe(std::size_t activity) const;
    // A lane painted from its summary bins at this zoom: the bin under widget position pos.
    using BinHit = TimelineHitTest::Bin;
    std::optional<BinHit> binAt(QPoint pos) const;
    QString describeBin(const BinHit& hit) const;
    QString iterationDetails(const trace::Step& step, const QString& duration) const;
    // A joined run's request track: the token drawn at pos (index into run.steps, or
    // -1), where token `step` is drawn (widget coordinates; empty off screen), and the
    // selection TokenSelector sets: the token, its iteration and its kernels outlined.
    int tokenAt(QPoint pos) const;
    QRect tokenRect(int step) const;
    void setTokenSelection(int token, int iteration, std::vector<std::size_t> kernels);
    // Collapses or expands a rank/GPU group of lanes (index into the layout's groups());
    // a click on its header row toggles it.
    void setGroupCollapsed(int group, bool collapsed);

  signals:
    // A stretch of a run left in its file came in (ActivityWindow): what the timeline
    // draws, hovers and outlines changed.
    void stretchChanged();
    void rangeSelected(qint64 t0, qint64 t1);
    void selectionCleared();
    void detailsChanged(const QString& html);
    // A click on a token of the request track (TokenSelector selects it).
    void tokenClicked(int step);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    enum class Drag { None, Pan, Select };
    int stepAt(QPoint pos) const;
    TimelineHitTest hits() const;
    void scrollBy(int dy);
    void clickAt(QPoint pos);
    double plotX(QPoint pos) const;
    void rebuildLayout();
    void restoreDepthLimits();
    void useSummaries();
    int depthOf(std::size_t activity) const;
    // The activities hit tests and tooltips see (TimelineScene::activity_index()).
    const std::vector<trace::Activity>& activities() const {
        return scene_.activity_index()->run().activities;
    }
    // Asks the ActivityWindow for what this frame shows from activities, and takes the
    // stretch it has.
    void wantActivities();
    void takeStretch();
    // Marks the match revealAt() asked for, once the stretch read holds it.
    void markPending();
    void showSpan(int lane, std::int64_t start_ns, std::int64_t end_ns, int depth);

    OpenRun run_;
    TimelineLayout layout_;
    TimelineScene scene_;
    std::unique_ptr<analysis::Classifier> classifier_;
    std::unique_ptr<SummaryTiles> summaries_;
    std::unique_ptr<ActivityWindow> window_;
    struct Pending {
        int lane = -1;
        std::int64_t start_ns = 0, end_ns = 0;
    };
    Pending pending_;  // revealAt's match, lane -1 when none is waiting
    std::size_t summary_threshold_ = kSummaryThreshold;
    Drag drag_ = Drag::None;
    QPoint press_pos_;
    QPoint last_pos_;
    double select_anchor_ns_ = 0;
    bool user_navigated_ = false;
};

}  // namespace tokenscope::ui
