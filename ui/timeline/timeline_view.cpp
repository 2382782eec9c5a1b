#include "timeline_view.h"

#include <QActionGroup>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QSettings>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "activity_tooltip.h"
#include "activity_window.h"
#include "analysis/attribution/classifier.h"
#include "analysis/heatmap/batch_label.h"
#include "analysis/timeline/summary_lod.h"
#include "bin_tooltip.h"
#include "summary_tiles.h"
#include "timeline_hit_test.h"
#include "timeline_painter.h"
#include "token_track.h"
#include "ui/plots/time_format.h"
#include "ui/plots/tooltip_text.h"

namespace tokenscope::ui {
namespace {

using Layout = TimelineLayout;
constexpr double kZoomStep = 1.25;
constexpr int kDragThresholdPx = 3;

QString view_of(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Where a lane's levels are kept: by its kind and name, so "main thread" of the next run
// of the same program opens as deep as it was left.
QString depth_key(const trace::Lane& lane) {
    return QStringLiteral("timeline/levels/%1/%2")
        .arg(static_cast<int>(lane.kind))
        .arg(QString::fromStdString(lane.name).replace(QLatin1Char('/'), QLatin1Char('|')));
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    scene_.empty_text =
        tr("No run open.\n\nOpen a file with File > Open (Ctrl+O) or drop one on this window; "
           "File > New Run (Ctrl+N) makes a run.");
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 200);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

TimelineView::~TimelineView() = default;

void TimelineView::setRun(const OpenRun& run) {
    run_ = run;
    classifier_.reset();
    pending_ = {};
    window_.reset();
    summaries_.reset();
    const plots::TimeUnit unit = scene_.unit;
    const QString empty = scene_.empty_text;
    scene_ = TimelineScene{};
    scene_.unit = unit;
    scene_.empty_text = empty;
    if (run_.valid() && run_.index) {
        classifier_ =
            std::make_unique<analysis::Classifier>(*run_.data, analysis::AttributionOptions{}, -1);
        layout_.reset_groups();
        layout_.forget_levels();
        restoreDepthLimits();
        layout_.build(run_.index.get());
        scene_.index = run_.index.get();
        scene_.layout = &layout_;
        useSummaries();
    } else {
        layout_.build(nullptr);
    }
    user_navigated_ = false;
    fitAll();
    user_navigated_ = false;
}

// A large run read from a file paints zoomed out from the file's summaries, read in
// the background: each batch of tiles that comes in is painted. One whose activities
// stayed in the file (the loader left them there) reads those a zoomed-in view shows.
void TimelineView::useSummaries() {
    const auto activities = run_.data->activity_totals().activities();
    if (run_.file_run < 0) return;
    if (run_.data->in_file) {
        window_ = std::make_unique<ActivityWindow>(run_.path, run_.file_run, run_.data);
        connect(window_.get(), &ActivityWindow::arrived, this, &TimelineView::takeStretch);
    }
    if (!run_.data->in_file && static_cast<std::size_t>(activities) < summary_threshold_) return;
    summaries_ = std::make_unique<SummaryTiles>(run_.path, run_.file_run, run_.data->lanes.size());
    connect(summaries_.get(), &SummaryTiles::tilesArrived, this, qOverload<>(&QWidget::update));
    scene_.summaries = summaries_.get();
}

// The lanes whose finest summary bins are too wide at this zoom paint activities: those
// of the view, which the window reads. Until the summaries' levels are in, nothing is
// asked (every lane would seem to need its activities).
void TimelineView::wantActivities() {
    if (!window_ || (summaries_ && !summaries_->opened())) return;
    const double ns_per_px = scene_.viewport.ns_per_px();
    std::vector<std::uint16_t> lanes;
    for (const auto& row : layout_.rows())
        if (row.kind == Layout::RowKind::Activities &&
            (!summaries_ ||
             analysis::SummaryLod::level_for(summaries_->levels(row.lane), ns_per_px) < 0) &&
            std::find(lanes.begin(), lanes.end(), row.lane) == lanes.end())
            lanes.push_back(static_cast<std::uint16_t>(row.lane));
    std::sort(lanes.begin(), lanes.end());
    const std::int64_t t0 = scene_.viewport.start_ns();
    const std::int64_t t1 = scene_.viewport.end_ns(plotWidth());
    window_->want(lanes, t0, t1);
    const auto stats = window_->stats();
    if (!stats.error.isEmpty())
        scene_.notice = tr("Activities not shown: %1").arg(stats.error);
    else if (!window_->idle())
        scene_.notice = tr("Reading the activities in view…");
    else if (stats.truncated)
        scene_.notice = tr("Showing the first %L1 activities here: zoom in for the rest")
                            .arg(static_cast<qulonglong>(stats.activities));
    else
        scene_.notice.clear();
}

bool TimelineView::reading() const {
    return (summaries_ && !summaries_->idle()) || (window_ && !window_->idle());
}

// A new stretch of activities: what pointed into the last one is dropped.
void TimelineView::takeStretch() {
    if (!window_ || window_->index() == scene_.spans) return update();
    scene_.spans = window_->index();
    // The run's own index has no activities to know its lanes' nesting from: the stretch's
    // deeper ranges get rows of their own, as they would in a run read whole.
    bool deeper = false;
    if (scene_.spans != nullptr)
        for (std::size_t lane = 0; lane < scene_.spans->run().lanes.size(); ++lane)
            deeper |=
                layout_.learn_levels(static_cast<int>(lane), scene_.spans->max_depth(lane) + 1);
    if (deeper) rebuildLayout();
    scene_.hovered = scene_.linked = scene_.found = TimelineScene::kNone;
    scene_.linked_all.clear();
    scene_.highlighted.clear();
    markPending();
    update();
    emit stretchChanged();
}

void TimelineView::setUnit(plots::TimeUnit unit) {
    scene_.unit = unit;
    update();
}

int TimelineView::laneRowCount() const {
    return static_cast<int>(std::count_if(layout_.rows().begin(), layout_.rows().end(),
                                          [](const auto& r) { return r.lane >= 0; }));
}

int TimelineView::plotWidth() const {
    return std::max(1, width() - Layout::kLabelWidth);
}

double TimelineView::plotX(QPoint pos) const {
    return pos.x() - Layout::kLabelWidth;
}

void TimelineView::zoomAt(double plot_x, double factor) {
    scene_.viewport.zoom_at(plot_x, factor);
    user_navigated_ = true;
    update();
}

void TimelineView::fitAll() {
    if (scene_.index == nullptr) return update();
    const std::int64_t t0 = scene_.index->min_time();
    const std::int64_t t1 = scene_.index->max_time();
    const std::int64_t margin = std::max<std::int64_t>(1, (t1 - t0) / 50);
    showRange(t0 - margin, t1 + margin);
}

void TimelineView::showRange(qint64 t0, qint64 t1) {
    scene_.viewport.fit(t0, t1, plotWidth());
    user_navigated_ = true;
    update();
}

void TimelineView::selectRange(qint64 t0, qint64 t1) {
    if (t1 < t0) std::swap(t0, t1);
    scene_.has_selection = true;
    scene_.selection_start = t0;
    scene_.selection_end = t1;
    update();
    emit rangeSelected(t0, t1);
}

void TimelineView::clearSelection() {
    scene_.has_selection = false;
    update();
    emit selectionCleared();
}

void TimelineView::reveal(std::size_t activity) {
    if (scene_.index == nullptr || activity >= activities().size()) return;
    const auto& a = activities()[activity];
    scene_.found = activity;
    showSpan(static_cast<int>(a.lane), a.start_ns, a.end_ns, depthOf(activity));
    emit detailsChanged(describe(activity));
    update();
}

void TimelineView::revealAt(int lane, qint64 start_ns, qint64 end_ns) {
    if (scene_.index == nullptr) return;
    scene_.found = TimelineScene::kNone;
    pending_ = {lane, start_ns, end_ns};
    showSpan(lane, start_ns, end_ns, 0);
    markPending();
    update();
}

void TimelineView::markPending() {
    const TimelineIndex* index = scene_.activity_index();
    if (pending_.lane < 0 || index == nullptr ||
        static_cast<std::size_t>(pending_.lane) >= index->run().lanes.size())
        return;
    const auto& acts = index->run().activities;
    const auto r = index->visible(static_cast<std::size_t>(pending_.lane), pending_.start_ns,
                                  pending_.start_ns + 1);
    for (std::size_t i = r.begin; i < r.end; ++i)
        if (acts[i].start_ns == pending_.start_ns && acts[i].end_ns == pending_.end_ns) {
            scene_.found = i;
            pending_ = {};
            emit detailsChanged(describe(i));
            return;
        }
}

// Shows a span of `lane`: opens its group and nesting level, zooms so it is a third of the
// view (unless it is already a readable width), centres it and scrolls to its row.
void TimelineView::showSpan(int lane, std::int64_t start_ns, std::int64_t end_ns, int depth) {
    // Its lanes' group open and its nesting level shown (for this view, not remembered).
    bool relayout = false;
    if (const int g = layout_.group_of_lane(lane); g >= 0 && layout_.collapsed(g)) {
        layout_.set_collapsed(g, false);
        relayout = true;
    }
    if (depth + 1 > layout_.depth_limit(lane)) {
        layout_.set_depth_limit(lane, depth + 1);
        relayout = true;
    }
    if (relayout) rebuildLayout();
    const double w = plotWidth();
    const std::int64_t duration = end_ns - start_ns;
    // Zoomed so the match is a third of the view when it would be a sliver or wider
    // than the view; else the zoom stays and the match is centred.
    const double px = duration / scene_.viewport.ns_per_px();
    if (px < 8.0 || px > w * 0.9) {
        const std::int64_t pad = std::max<std::int64_t>(duration, 500);
        scene_.viewport.fit(start_ns - pad, end_ns + pad, w);
    }
    const double centre = (start_ns + end_ns) / 2.0;
    scene_.viewport.pan_px(w / 2.0 - scene_.viewport.x_of(static_cast<std::int64_t>(centre)));
    if (const auto* row = layout_.row_of_lane(lane)) {
        const int visible_h = height() - Layout::kAxisHeight;
        const int y = row->y + std::min(depth, row->depth_rows - 1) * Layout::kSpanHeight;
        if (y < scene_.scroll_y || y + Layout::kSpanHeight > scene_.scroll_y + visible_h)
            scrollBy(y - scene_.scroll_y - visible_h / 3);
    }
    user_navigated_ = true;
}

void TimelineView::setEmptyText(const QString& text) {
    scene_.empty_text = text;
    update();
}

void TimelineView::clearMatch() {
    scene_.found = TimelineScene::kNone;
    pending_ = {};
    update();
}

// The nesting level of an activity in its lane (0: outermost).
int TimelineView::depthOf(std::size_t activity) const {
    const auto& a = activities()[activity];
    int depth = 0;
    scene_.activity_index()->for_each_visible(a.lane, a.start_ns, a.start_ns + 1,
                                              [&](std::size_t j, int d) {
                                                  if (j == activity) depth = d;
                                              });
    return depth;
}

void TimelineView::rebuildLayout() {
    layout_.build(run_.index.get());
    scrollBy(0);
    update();
}

void TimelineView::restoreDepthLimits() {
    layout_.clear_depth_limits();
    if (!run_.valid()) return;
    const QSettings settings;
    for (std::size_t lane = 0; lane < run_.data->lanes.size(); ++lane) {
        const QVariant rows = settings.value(depth_key(run_.data->lanes[lane]));
        if (rows.isValid()) layout_.set_depth_limit(static_cast<int>(lane), rows.toInt());
    }
}

void TimelineView::setDepthLimit(int lane, int rows) {
    if (!run_.valid() || lane < 0 || lane >= static_cast<int>(run_.data->lanes.size())) return;
    layout_.set_depth_limit(lane, rows);
    QSettings settings;
    const QString key = depth_key(run_.data->lanes[static_cast<std::size_t>(lane)]);
    if (rows <= 0)
        settings.remove(key);
    else
        settings.setValue(key, rows);
    rebuildLayout();
}

int TimelineView::depthLimit(int lane) const {
    return layout_.depth_limit(lane);
}

QString TimelineView::laneToolTip(int lane) const {
    const auto* row = layout_.row_of_lane(lane);
    if (row == nullptr) return {};
    QString text = row->label.toHtmlEscaped();
    if (row->levels > row->depth_rows)
        text += tr("<br>%1 of %2 nesting levels shown; the deeper ones share the last row. "
                   "Click the name to show them all, or right-click for the levels shown.")
                    .arg(row->depth_rows)
                    .arg(row->levels);
    else if (row->levels > 1)
        text += tr("<br>%1 nesting levels; right-click for the levels shown.").arg(row->levels);
    return text;
}

QMenu* TimelineView::laneMenu(int lane) {
    const auto* row = layout_.row_of_lane(lane);
    if (row == nullptr || row->kind != Layout::RowKind::Activities) return nullptr;
    auto* menu = new QMenu(this);
    const int levels = row->levels;
    const int shown = row->depth_rows;
    menu->addSection(row->label);
    if (levels <= 1) {
        menu->addAction(tr("No nesting on this lane"))->setEnabled(false);
        return menu;
    }
    menu->addAction(tr("Show &all %1 levels").arg(levels), this,
                    [this, lane, levels] { setDepthLimit(lane, levels); })
        ->setEnabled(shown < levels);
    menu->addAction(tr("Show up to %1 levels (&default)").arg(Layout::kMaxDepthRows), this,
                    [this, lane] { setDepthLimit(lane, 0); })
        ->setEnabled(layout_.depth_limit(lane) != Layout::kMaxDepthRows);
    QMenu* choose = menu->addMenu(tr("&Levels shown"));
    auto* group = new QActionGroup(choose);
    for (int n : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64}) {
        if (n >= levels) break;
        QAction* a = choose->addAction(QString::number(n), this,
                                       [this, lane, n] { setDepthLimit(lane, n); });
        a->setCheckable(true);
        a->setChecked(shown == n);
        group->addAction(a);
    }
    QAction* all = choose->addAction(tr("All (%1)").arg(levels), this,
                                     [this, lane, levels] { setDepthLimit(lane, levels); });
    all->setCheckable(true);
    all->setChecked(shown == levels);
    group->addAction(all);
    return menu;
}

TimelineHitTest TimelineView::hits() const {
    return TimelineHitTest(scene_, layout_, summaries_.get());
}

int TimelineView::laneAt(QPoint pos) const {
    return hits().lane_at(pos);
}

std::size_t TimelineView::activityAt(QPoint pos) const {
    return hits().activity_at(pos);
}

std::optional<TimelineView::BinHit> TimelineView::binAt(QPoint pos) const {
    return hits().bin_at(pos);
}

int TimelineView::stepAt(QPoint pos) const {
    return hits().step_at(pos);
}

int TimelineView::tokenAt(QPoint pos) const {
    return hits().token_at(pos);
}

QString TimelineView::describeBin(const BinHit& hit) const {
    if (scene_.index == nullptr) return {};
    return BinTooltip::html(*run_.data, hit.bin, hit.bin_log2, scene_.index->min_time(),
                            scene_.unit);
}

QRect TimelineView::tokenRect(int step) const {
    if (step < 0) return {};
    const QRectF r = TokenTrack::rect(scene_, static_cast<std::size_t>(step));
    return r.isEmpty() ? QRect() : r.translated(Layout::kLabelWidth, 0).toAlignedRect();
}

void TimelineView::setTokenSelection(int token, int iteration, std::vector<std::size_t> kernels) {
    scene_.selected_token = token;
    scene_.selected_iteration = iteration;
    scene_.highlighted = std::move(kernels);
    update();
}

void TimelineView::hoverAt(QPoint pos) {
    const std::size_t hovered = activityAt(pos);
    if (hovered == scene_.hovered) return;
    scene_.hovered = hovered;
    scene_.linked_all.clear();
    if (hovered != TimelineScene::kNone)
        scene_.linked_all =
            scene_.activity_index()->correlated_all(hovered, TimelineIndex::kLinkWindowNs);
    scene_.linked = scene_.linked_all.empty() ? TimelineScene::kNone : scene_.linked_all.front();
    update();
}

QString TimelineView::describe(std::size_t i) const {
    if (scene_.index == nullptr) return {};
    return ActivityTooltip::html(*scene_.activity_index(), scene_.index->min_time(), i,
                                 scene_.unit);
}

void TimelineView::paintEvent(QPaintEvent*) {
    wantActivities();
    QPainter p(this);
    TimelinePainter(scene_, classifier_.get(), palette()).paint(p, width(), height());
}

void TimelineView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Until the user navigates, the view keeps showing the whole run.
    if (!user_navigated_) {
        fitAll();
        user_navigated_ = false;
    }
    scrollBy(0);
}

void TimelineView::scrollBy(int dy) {
    const int max_scroll = std::max(0, layout_.content_height() - (height() - Layout::kAxisHeight));
    scene_.scroll_y = std::clamp(scene_.scroll_y + dy, 0, max_scroll);
    update();
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        scrollBy(-delta.y() / 4);
    } else if (delta.y() != 0) {
        zoomAt(plotX(event->position().toPoint()), std::pow(kZoomStep, delta.y() / 120.0));
    } else if (delta.x() != 0) {
        scene_.viewport.pan_px(delta.x() / 2.0);
        update();
    }
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    press_pos_ = last_pos_ = event->position().toPoint();
    const bool select =
        event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    drag_ = select ? Drag::Select : (event->button() == Qt::LeftButton ? Drag::Pan : Drag::None);
    if (drag_ == Drag::Select) select_anchor_ns_ = scene_.viewport.time_at(plotX(press_pos_));
    setFocus();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    if (drag_ == Drag::Pan) {
        scene_.viewport.pan_px(pos.x() - last_pos_.x());
        scrollBy(last_pos_.y() - pos.y());
        user_navigated_ = true;
    } else if (drag_ == Drag::Select) {
        const double t = scene_.viewport.time_at(plotX(pos));
        scene_.has_selection = true;
        scene_.selection_start = static_cast<std::int64_t>(std::min(t, select_anchor_ns_));
        scene_.selection_end = static_cast<std::int64_t>(std::max(t, select_anchor_ns_));
        update();
    } else if (pos.x() < Layout::kLabelWidth) {
        // The label column: a lane's whole name (the label may be cut) and its levels.
        hoverAt(pos);
        const int lane = laneAt(pos);
        if (lane >= 0)
            plots::show_tooltip(event->globalPosition().toPoint(), laneToolTip(lane), this);
        else
            QToolTip::hideText();
    } else {
        hoverAt(pos);
        const int step = scene_.hovered == TimelineScene::kNone ? stepAt(pos) : -1;
        if (scene_.hovered != TimelineScene::kNone) {
            plots::show_tooltip(event->globalPosition().toPoint(), describe(scene_.hovered), this);
        } else if (step >= 0 && run_.data->steps[static_cast<std::size_t>(step)].is_iteration()) {
            // An iteration says what its marker was and how far the GPU work ran past it.
            const auto& st = run_.data->steps[static_cast<std::size_t>(step)];
            plots::show_tooltip(
                event->globalPosition().toPoint(),
                iterationDetails(st, plots::TimeFormat::duration(st.duration_ns(), scene_.unit)),
                this);
        } else if (const auto bin = binAt(pos)) {
            plots::show_tooltip(event->globalPosition().toPoint(), describeBin(*bin), this);
        } else {
            QToolTip::hideText();
        }
    }
    last_pos_ = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint pos = event->position().toPoint();
    const bool moved = (pos - press_pos_).manhattanLength() > kDragThresholdPx;
    const Drag was = drag_;
    drag_ = Drag::None;
    if (was == Drag::Select && moved) {
        selectRange(scene_.selection_start, scene_.selection_end);
    } else if (!moved && event->button() == Qt::LeftButton) {
        clickAt(pos);
    } else if (!moved && event->button() == Qt::RightButton) {
        // A right click without a drag: the lane's menu (its levels).
        if (QMenu* menu = laneMenu(laneAt(pos))) {
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(event->globalPosition().toPoint());
        }
    }
}

void TimelineView::setGroupCollapsed(int group, bool collapsed) {
    layout_.set_collapsed(group, collapsed);
    layout_.build(run_.index.get());
    scrollBy(0);
}

// A click selects what is under it: an activity or a step shows its attribution;
// a rank/GPU header collapses or expands its lanes.
void TimelineView::clickAt(QPoint pos) {
    const auto* row = layout_.row_at(pos.y() - Layout::kAxisHeight + scene_.scroll_y);
    if (row != nullptr && row->kind == Layout::RowKind::Group) {
        setGroupCollapsed(row->group, !layout_.collapsed(row->group));
        return;
    }
    // A lane's name whose deeper levels share its last row: show them all.
    if (row != nullptr && pos.x() < Layout::kLabelWidth &&
        row->kind == Layout::RowKind::Activities && row->levels > row->depth_rows) {
        setDepthLimit(row->lane, row->levels);
        return;
    }
    if (const std::size_t i = activityAt(pos); i != TimelineScene::kNone) {
        const auto& a = activities()[i];
        emit detailsChanged(describe(i));
        if (a.end_ns > a.start_ns) selectRange(a.start_ns, a.end_ns);
    } else if (const int token = tokenAt(pos); token >= 0) {
        emit tokenClicked(token);
    } else if (const int s = stepAt(pos); s >= 0) {
        const auto& st = run_.data->steps[static_cast<std::size_t>(s)];
        const QString duration = plots::TimeFormat::duration(st.duration_ns(), scene_.unit);
        emit detailsChanged(st.is_iteration()
                                ? iterationDetails(st, duration)
                                : QStringLiteral("<b>step</b> request %1, token %2 "
                                                 "(%3)<br>duration %4")
                                      .arg(st.request)
                                      .arg(st.index)
                                      .arg(view_of(trace::to_string(st.phase)), duration));
        selectRange(st.start_ns, st.end_ns);
    } else if (scene_.has_selection) {
        clearSelection();
    }
}

// An engine iteration: its batch from the marker, and where the marker ended when the
// window runs on over the GPU work the marker launched (docs/engine-traces.md).
QString TimelineView::iterationDetails(const trace::Step& st, const QString& duration) const {
    QString text = QStringLiteral("<b>iteration</b> %1 (%2)")
                       .arg(st.index)
                       .arg(view_of(trace::to_string(st.phase)));
    if (st.batch.known())
        text += QStringLiteral(": ") + QString::fromStdString(analysis::describe_batch(st.batch));
    text += QStringLiteral("<br>window %1").arg(duration);
    if (st.marker_end_ns > st.start_ns && st.marker_end_ns < st.end_ns)
        text += QStringLiteral(": CPU marker %1, then the GPU work it launched for %2 more")
                    .arg(plots::TimeFormat::duration(st.marker_end_ns - st.start_ns, scene_.unit),
                         plots::TimeFormat::duration(st.end_ns - st.marker_end_ns, scene_.unit));
    return text;
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    const double w = plotWidth();
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const double anchor = rect().contains(cursor) && plotX(cursor) >= 0 ? plotX(cursor) : w / 2.0;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
        case Qt::Key_W:
            zoomAt(anchor, 2.0);
            break;
        case Qt::Key_Minus:
        case Qt::Key_S:
            zoomAt(anchor, 0.5);
            break;
        case Qt::Key_Left:
        case Qt::Key_A:
            scene_.viewport.pan_px(w * 0.1);
            user_navigated_ = true;
            update();
            break;
        case Qt::Key_Right:
        case Qt::Key_D:
            scene_.viewport.pan_px(-w * 0.1);
            user_navigated_ = true;
            update();
            break;
        case Qt::Key_Up:
            scrollBy(-Layout::kSpanHeight * 2);
            break;
        case Qt::Key_Down:
            scrollBy(Layout::kSpanHeight * 2);
            break;
        case Qt::Key_Home:
            fitAll();
            break;
        case Qt::Key_Escape:
            clearSelection();
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent* event) {
    scene_.hovered = scene_.linked = TimelineScene::kNone;
    scene_.linked_all.clear();
    update();
    QWidget::leaveEvent(event);
}

}  // namespace tokenscope::ui
