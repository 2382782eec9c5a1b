#include "timeline_painter.h"

#include <QFontMetrics>
#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "analysis/heatmap/batch_label.h"
#include "analysis/timeline/summary_lod.h"
#include "span_folder.h"
#include "summary_tiles.h"
#include "token_track.h"
#include "ui/plots/category_colors.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {
namespace {

using Layout = TimelineLayout;

// 1-2-5 steps, at least min_ns apart.
std::int64_t nice_step(double min_ns) {
    double base = std::pow(10.0, std::floor(std::log10(std::max(min_ns, 1.0))));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (base * m >= min_ns)
            return std::max<std::int64_t>(1, static_cast<std::int64_t>(base * m));
    return static_cast<std::int64_t>(base * 10.0);
}

QString span_text(const trace::RunData& run, const SpanItem& item) {
    if (item.count > 1) return QStringLiteral("%1 events").arg(item.count);
    return QString::fromUtf8(
        run.name_of(run.activities[item.first]).data(),
        static_cast<qsizetype>(run.name_of(run.activities[item.first]).size()));
}

}  // namespace

TimelinePainter::TimelinePainter(const TimelineScene& scene, analysis::Classifier* classifier,
                                 const QPalette& palette)
    : s_(scene), classifier_(classifier), palette_(palette) {}

QColor TimelinePainter::color_of(const trace::Activity& a) const {
    using K = trace::ActivityKind;
    if (a.kind == K::Memcpy) return plots::CategoryColors::copy_color(a.copy);
    if (a.kind == K::Memset) return plots::CategoryColors::color(analysis::Category::GpuMemory);
    if (a.kind == K::Kernel) {
        auto c = classifier_ ? classifier_->gpu_category(a) : std::nullopt;
        return plots::CategoryColors::color(c.value_or(analysis::Category::GpuCompute));
    }
    return plots::CategoryColors::host_color(a.kind);
}

int TimelinePainter::row_top(const Row& row) const {
    return Layout::kAxisHeight + row.y - s_.scroll_y;
}

void TimelinePainter::paint(QPainter& p, int width, int height) {
    p.fillRect(0, 0, width, height, palette_.color(QPalette::Base));
    if (s_.index == nullptr || s_.layout == nullptr) {
        paint_empty(p, width, height);
        return;
    }
    const int plot_w = std::max(1, width - Layout::kLabelWidth);
    p.save();
    p.setClipRect(Layout::kLabelWidth, Layout::kAxisHeight, plot_w, height - Layout::kAxisHeight);
    p.translate(Layout::kLabelWidth, 0);
    bool odd = false;
    for (const auto& row : s_.layout->rows()) {
        const int top = row_top(row);
        if (top > height || top + row.height < Layout::kAxisHeight) continue;
        if ((odd = !odd))
            p.fillRect(0, top, plot_w, row.height, palette_.color(QPalette::AlternateBase));
        if (row.kind == Layout::RowKind::Steps)
            paint_steps(p, row, plot_w);
        else if (row.kind == Layout::RowKind::Tokens)
            TokenTrack::paint(p, s_, row, plot_w);
        else if (row.kind == Layout::RowKind::Counter)
            paint_counter(p, row, plot_w);
        else if (row.kind == Layout::RowKind::Group)  // a rank/GPU header: a band, no spans
            p.fillRect(0, top, plot_w, row.height - Layout::kGap,
                       palette_.color(QPalette::Midlight));
        else
            paint_spans(p, row, plot_w);
    }
    paint_guides(p, plot_w, height);
    p.restore();
    paint_overlays(p, width, height);
    TokenTrack::paint_selection(p, s_, *this, palette_.color(QPalette::Text), width, height);
    paint_labels(p, height);
    p.save();
    p.translate(Layout::kLabelWidth, 0);
    paint_axis(p, plot_w);
    p.restore();
    paint_notice(p, width);
}

// Over the plot's top right corner, on a box of its own so it reads over any span.
void TimelinePainter::paint_notice(QPainter& p, int width) const {
    if (s_.notice.isEmpty()) return;
    const QFontMetrics fm(p.font());
    const int w = std::min(fm.horizontalAdvance(s_.notice) + 12, width - Layout::kLabelWidth - 8);
    const QRect box(width - w - 4, Layout::kAxisHeight + 2, w, fm.height() + 6);
    p.fillRect(box, palette_.color(QPalette::ToolTipBase));
    p.setPen(palette_.color(QPalette::ToolTipText));
    p.drawRect(box.adjusted(0, 0, -1, -1));
    p.drawText(box.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
               fm.elidedText(s_.notice, Qt::ElideRight, w - 12));
}

std::vector<TimelinePainter::Tick> TimelinePainter::axis_ticks(int plot_w,
                                                               const QFontMetrics& fm) const {
    std::vector<Tick> ticks;
    if (s_.index == nullptr) return ticks;
    const auto& vp = s_.viewport;
    const std::int64_t step = nice_step(vp.ns_per_px() * 90.0);
    const std::int64_t origin = s_.index->min_time();
    const std::int64_t t0 = vp.start_ns();
    for (std::int64_t t = origin + ((t0 - origin) / step) * step; vp.x_of(t) < plot_w; t += step) {
        const double x = vp.x_of(t);
        if (x < 0) continue;
        Tick tick{x, plots::TimeFormat::tick(t - origin, step, s_.unit)};
        // A label cut at the right edge reads as another number ("10" of "10.8 ms"): the
        // tick stays, its label goes.
        if (x + 3 + fm.horizontalAdvance(tick.label) > plot_w) tick.label.clear();
        ticks.push_back(tick);
    }
    return ticks;
}

// No run: a panel in the middle of the view with what to do, or what went wrong.
void TimelinePainter::paint_empty(QPainter& p, int width, int height) const {
    if (s_.empty_text.isEmpty()) return;
    const int w = std::min(width - 40, 640);
    const QRect box((width - w) / 2, std::max(20, height / 4), w, std::max(40, height / 2));
    p.setPen(palette_.color(QPalette::WindowText));
    p.drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap, s_.empty_text);
}

void TimelinePainter::paint_axis(QPainter& p, int plot_w) const {
    p.fillRect(0, 0, plot_w, Layout::kAxisHeight, palette_.color(QPalette::Window));
    p.setPen(palette_.color(QPalette::WindowText));
    for (const Tick& tick : axis_ticks(plot_w, QFontMetrics(p.font()))) {
        p.drawLine(QPointF(tick.x, Layout::kAxisHeight - 6), QPointF(tick.x, Layout::kAxisHeight));
        if (!tick.label.isEmpty())
            p.drawText(QPointF(tick.x + 3, Layout::kAxisHeight - 8), tick.label);
    }
}

void TimelinePainter::paint_spans(QPainter& p, const Row& row, int plot_w) const {
    if (paint_summary(p, row, plot_w)) return;
    const TimelineIndex& index = *s_.activity_index();
    const auto& run = index.run();
    const auto items = SpanFolder::collect(index, static_cast<std::size_t>(row.lane), s_.viewport,
                                           plot_w, row.depth_rows);
    const int top = row_top(row);
    const QFontMetrics fm(p.font());
    for (const auto& it : items) {
        const double x0 = std::max(it.x0, -2.0);
        // A one-pixel gap keeps back-to-back spans of one colour apart.
        const double right = it.x1 - it.x0 >= 4.0 ? it.x1 - 1.0 : it.x1;
        const double x1 = std::min(std::max(right, it.x0 + 1.0), plot_w + 2.0);
        const QRectF r(x0, top + it.depth * Layout::kSpanHeight + 1, x1 - x0,
                       Layout::kSpanHeight - 2);
        QColor fill = color_of(run.activities[it.first]);
        if (it.count > 1) {
            // A fold is drawn dimmer and hatched, so it never passes for one long span.
            fill.setAlpha(150);
            p.fillRect(r, fill);
            p.fillRect(r, QBrush(palette_.color(QPalette::Text), Qt::BDiagPattern));
        } else {
            p.fillRect(r, fill);
        }
        if (r.width() > 24) {
            p.setPen(plots::CategoryColors::text_on(fill));
            const QString text =
                fm.elidedText(span_text(run, it), Qt::ElideRight, static_cast<int>(r.width()) - 4);
            p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        }
    }
}

// A bin is drawn in the colour of its dominant name, as its activities would be, and
// the more opaque the more of it they fill. Tiles not yet read: the activities paint
// this frame (they are in memory), and the next, once the tiles are in, is from bins.
bool TimelinePainter::paint_summary(QPainter& p, const Row& row, int plot_w) const {
    if (s_.summaries == nullptr) return false;
    const auto lane = static_cast<std::size_t>(row.lane);
    const auto& vp = s_.viewport;
    const auto& levels = s_.summaries->levels(lane);
    const int level = analysis::SummaryLod::level_for(levels, vp.ns_per_px());
    if (level < 0) return false;
    std::vector<store::SummaryBin> bins;
    if (!s_.summaries->bins(lane, level, vp.start_ns(), vp.end_ns(plot_w), bins)) return false;
    s_.summaries->countSummaryRow();
    const int shift = levels[static_cast<std::size_t>(level)].bin_log2();
    const double bin_ns = std::ldexp(1.0, shift);
    trace::Activity proxy;
    proxy.lane = static_cast<std::uint16_t>(lane);
    switch (s_.index->run().lanes[lane].kind) {
        case trace::LaneKind::GpuStream:
            proxy.kind = trace::ActivityKind::Kernel;
            break;
        case trace::LaneKind::CopyEngine:
            proxy.kind = trace::ActivityKind::Memcpy;
            break;
        case trace::LaneKind::StepTrack:
            proxy.kind = trace::ActivityKind::Range;
            break;
        default:
            proxy.kind = trace::ActivityKind::Api;
            break;
    }
    const int top = row_top(row);
    for (const auto& b : bins) {
        if (b.busy_ns <= 0 && b.count == 0) continue;
        proxy.name = b.dominant_ns > 0 ? b.dominant_name : b.longest_name;
        QColor fill = color_of(proxy);
        const double share = std::clamp(static_cast<double>(b.busy_ns) / bin_ns, 0.0, 1.0);
        fill.setAlpha(70 + static_cast<int>(185 * share));
        const double x0 = vp.x_of(b.bin << shift), x1 = vp.x_of((b.bin + 1) << shift);
        p.fillRect(QRectF(x0, top + 1, std::max(x1 - x0, 1.0), Layout::kSpanHeight - 2), fill);
    }
    return true;
}

void TimelinePainter::paint_counter(QPainter& p, const Row& row, int plot_w) const {
    const auto lane = static_cast<std::size_t>(row.lane);
    const auto& cs = s_.index->run().counters;
    const auto r =
        s_.index->visible_counters(lane, s_.viewport.start_ns(), s_.viewport.end_ns(plot_w));
    // Scaled to the samples in view: against the run's peak, a 2 MB/s baseline
    // under a 495 MB/s burst sits on the row's bottom edge and reads as no curve.
    double top_value = 0;
    for (std::size_t i = r.begin; i < r.end; ++i) top_value = std::max(top_value, cs[i].value);
    if (r.size() == 0 || top_value <= 0) return;
    const int top = row_top(row) + 2;
    const double h = Layout::kCounterHeight - 4;
    auto y_of = [&](double v) { return top + h - std::max(0.0, v) / top_value * h; };
    const QColor color = plots::CategoryColors::color(analysis::Category::Pcie);
    QPainterPath area = counter_area(cs, r, y_of, top + h, plot_w);
    QColor fill = color;
    fill.setAlpha(70);
    p.fillPath(area, fill);
    p.setPen(QPen(color, 1));
    p.drawPath(area);
    p.setPen(palette_.color(QPalette::PlaceholderText));
    const std::string& name = s_.index->run().lanes[lane].name;
    QString label = plots::TimeFormat::counter(top_value, QString::fromStdString(name));
    if (top_value < s_.index->counter_max(lane))
        label += QStringLiteral(" in view (run peak %1)")
                     .arg(plots::TimeFormat::counter(s_.index->counter_max(lane),
                                                     QString::fromStdString(name)));
    p.drawText(QPointF(4, top + 10), label);
}

// Sample-and-hold: a counter's value holds until the next sample. Samples in
// one pixel column keep their extremes, so the cost stays per pixel.
QPainterPath TimelinePainter::counter_area(const std::vector<trace::CounterSample>& cs,
                                           const TimelineIndex::Range& r,
                                           const std::function<double(double)>& y_of, double bottom,
                                           int plot_w) const {
    QPainterPath path;
    const double x_first = std::max(-1.0, s_.viewport.x_of(cs[r.begin].time_ns));
    path.moveTo(x_first, bottom);
    long column = LONG_MIN;
    double last_y = bottom;
    for (std::size_t i = r.begin; i < r.end; ++i) {
        const double x = std::clamp(s_.viewport.x_of(cs[i].time_ns), -1.0, plot_w + 1.0);
        const double y = y_of(cs[i].value);
        const long c = std::lround(std::floor(x));
        if (c == column) {
            path.lineTo(x, std::min(last_y, y));  // the column's peak stays visible
            last_y = y;
            continue;
        }
        column = c;
        path.lineTo(x, last_y);
        path.lineTo(x, y);
        last_y = y;
    }
    const double x_end = std::min(plot_w + 1.0, s_.viewport.x_of(cs[r.end - 1].time_ns));
    path.lineTo(x_end, last_y);
    path.lineTo(x_end, bottom);
    path.closeSubpath();
    return path;
}

void TimelinePainter::paint_steps(QPainter& p, const Row& row, int plot_w) const {
    const auto& steps = s_.index->run().steps;
    const auto& order = s_.index->steps_by_start();
    const auto r = s_.index->visible_steps(s_.viewport.start_ns(), s_.viewport.end_ns(plot_w));
    const int top = row_top(row) + 1;
    const QFontMetrics fm(p.font());
    double last_x1 = -1e9;
    for (std::size_t k = r.begin; k < r.end; ++k) {
        if (s_.index->requests().is_token(order[k])) continue;  // on the request track
        const auto& st = steps[order[k]];
        const double x0 = s_.viewport.x_of(st.start_ns);
        const double x1 = s_.viewport.x_of(st.end_ns);
        if (x1 < 0 || (x1 - x0 < 3.0 && x1 < last_x1 + 1.0)) continue;  // fold narrow steps
        last_x1 = x1;
        QColor fill =
            st.phase == trace::Phase::Prefill ? QColor(0x6A, 0x4C, 0x93) : QColor(0x8E, 0x9A, 0xAF);
        const QRectF rect(x0, top, std::max(1.0, x1 - x0 - 1.0), Layout::kSpanHeight - 2);
        p.fillRect(rect, fill);
        // The part of an iteration's window after its CPU marker, while the GPU work the
        // marker launched still runs: lighter, so the marker's own extent stays visible.
        if (st.marker_end_ns > st.start_ns && st.marker_end_ns < st.end_ns) {
            const double xm =
                std::clamp(s_.viewport.x_of(st.marker_end_ns), rect.left(), rect.right());
            QColor gpu_part = fill.lighter(135);
            p.fillRect(QRectF(xm, rect.top(), rect.right() - xm, rect.height()), gpu_part);
        }
        if (rect.width() > 30) {
            p.setPen(plots::CategoryColors::text_on(fill));
            QString text = st.is_iteration()
                               ? QStringLiteral("step %1").arg(st.index)
                               : QStringLiteral("req %1 · token %2").arg(st.request).arg(st.index);
            if (st.batch.known())
                text += QStringLiteral(" · ") +
                        QString::fromStdString(analysis::describe_batch(st.batch));
            p.drawText(rect.adjusted(2, 0, -2, 0), Qt::AlignVCenter,
                       fm.elidedText(text, Qt::ElideRight, static_cast<int>(rect.width()) - 4));
        }
    }
}

void TimelinePainter::paint_guides(QPainter& p, int plot_w, int height) const {
    const auto& steps = s_.index->run().steps;
    const auto& order = s_.index->steps_by_start();
    const auto r = s_.index->visible_steps(s_.viewport.start_ns(), s_.viewport.end_ns(plot_w));
    QColor guide = palette_.color(QPalette::Text);
    guide.setAlpha(45);
    p.setPen(QPen(guide, 1, Qt::DashLine));
    double last = -1e9;
    for (std::size_t k = r.begin; k < r.end; ++k) {
        if (s_.index->requests().is_token(order[k])) continue;      // a joined run: iterations only
        const double x = s_.viewport.x_of(steps[order[k]].end_ns);  // token emission
        if (x < 0 || x > plot_w || std::abs(x - last) < 4.0) continue;
        last = x;
        p.drawLine(QPointF(x, Layout::kAxisHeight), QPointF(x, height));
    }
}

int TimelinePainter::depth_of(std::size_t i) const {
    const TimelineIndex& index = *s_.activity_index();
    const auto& a = index.run().activities[i];
    int depth = 0;
    index.for_each_visible(a.lane, a.start_ns, a.start_ns + 1, [&](std::size_t j, int d) {
        if (j == i) depth = d;
    });
    return depth;
}

QString TimelinePainter::more_levels_text(const Row& row) {
    return QObject::tr("\u25b8 %1 more levels").arg(row.levels - row.depth_rows);
}

// Lane names keep what tells lanes apart: the numbers (the thread id, the stream,
// "GPU 0") and the last word ("annotations", "(Trace)") stay whole while the
// other words shorten, longest first ("thread 1102 (pt_main_thread) annotations" →
// "thread 1102 (pt_ma…) annotations"); only when that is not enough is the name cut on
// the left, which keeps its end.
QString TimelinePainter::elide_lane_label(const QString& label, const QFontMetrics& fm, int width) {
    if (fm.horizontalAdvance(label) <= width) return label;
    static QHash<QString, QString> cache;  // painted every frame; names repeat
    const QString key = QStringLiteral("%1\n%2\n%3").arg(width).arg(fm.height()).arg(label);
    if (const auto it = cache.constFind(key); it != cache.constEnd()) return *it;
    const QChar dots(0x2026);
    QStringList words = label.split(QLatin1Char(' '));
    QList<int> kept;  // characters kept of each shortened word; -1: whole
    auto keeps = [&](int i) {
        const QString& w = words[i];
        // An id: a number ("1102", "7", "(8013)"), not a name with a digit in it.
        const auto digits = std::count_if(w.begin(), w.end(), [](QChar c) { return c.isDigit(); });
        return i + 1 == words.size() || w == QLatin1String("GPU") || w == QLatin1String("rank") ||
               (digits > 0 && digits * 2 >= w.size() - 2);
    };
    QStringList shown = words;
    auto fits = [&] { return fm.horizontalAdvance(shown.join(QLatin1Char(' '))) <= width; };
    for (int i = 0; i < words.size(); ++i) kept << static_cast<int>(words[i].size());
    while (!fits()) {
        // The longest word that may shorten, by one character.
        int longest = -1;
        for (int i = 0; i < words.size(); ++i)
            if (!keeps(i) && kept[i] > 2 && (longest < 0 || kept[i] > kept[longest])) longest = i;
        if (longest < 0) break;
        --kept[longest];
        const QString& w = words[longest];
        const bool closes = w.endsWith(QLatin1Char(')'));  // "(pt_main_thread)" keeps its ")"
        shown[longest] = w.left(kept[longest]) + dots + (closes ? QStringLiteral(")") : QString());
    }
    // Still too wide: the other words go, one at a time from the front ("1102 (p…)
    // annotations" still names its lane).
    for (int i = 0; i < shown.size() && !fits(); ++i)
        if (!keeps(i) && shown.size() > 1) {
            shown.removeAt(i);
            words.removeAt(i);
            kept.removeAt(i);
            i = -1;
        }
    QString out = shown.join(QLatin1Char(' '));
    if (fm.horizontalAdvance(out) > width) out = fm.elidedText(label, Qt::ElideLeft, width);
    if (cache.size() > 4096) cache.clear();
    cache.insert(key, out);
    return out;
}

QRectF TimelinePainter::span_rect(std::size_t i, int width) const {
    if (s_.index == nullptr || i >= s_.activity_index()->run().activities.size()) return {};
    const auto& a = s_.activity_index()->run().activities[i];
    const Row* row = s_.layout->row_of_lane(a.lane);
    if (row == nullptr) return {};
    const double x0 = Layout::kLabelWidth + s_.viewport.x_of(a.start_ns);
    const double x1 = Layout::kLabelWidth + s_.viewport.x_of(a.end_ns);
    const int depth = std::min(depth_of(i), row->depth_rows - 1);
    const QRectF r(x0, row_top(*row) + depth * Layout::kSpanHeight + 1, std::max(1.0, x1 - x0),
                   Layout::kSpanHeight - 2);
    return r.intersects(QRectF(Layout::kLabelWidth, 0, width, 1e9)) ? r : QRectF();
}

void TimelinePainter::paint_overlays(QPainter& p, int width, int height) const {
    p.save();
    p.setClipRect(Layout::kLabelWidth, Layout::kAxisHeight, width - Layout::kLabelWidth, height);
    if (s_.has_selection) {
        const double x0 = Layout::kLabelWidth + s_.viewport.x_of(s_.selection_start);
        const double x1 = Layout::kLabelWidth + s_.viewport.x_of(s_.selection_end);
        QColor c = palette_.color(QPalette::Highlight);
        c.setAlpha(60);
        p.fillRect(QRectF(x0, Layout::kAxisHeight, x1 - x0, height), c);
        p.setPen(palette_.color(QPalette::Text));
        p.drawText(QPointF(x0 + 4, Layout::kAxisHeight + 12),
                   plots::TimeFormat::duration(s_.selection_end - s_.selection_start, s_.unit));
    }
    const QRectF hovered = span_rect(s_.hovered, width);
    const QRectF linked = span_rect(s_.linked, width);
    const QRectF found = span_rect(s_.found, width);
    if (!found.isEmpty()) {
        // The match stands out: a band down the whole view at its time, and an outline.
        const QColor mark(0xF0, 0xE4, 0x42);
        QColor band = mark;
        band.setAlpha(70);
        p.fillRect(QRectF(found.left() - 2, Layout::kAxisHeight, found.width() + 4, height), band);
        p.setPen(QPen(QColor(0xD5, 0x5E, 0x00), 2));
        p.drawRect(found.adjusted(-2, -2, 2, 2));
    }
    p.setPen(QPen(palette_.color(QPalette::Text), 2));
    if (!hovered.isEmpty()) p.drawRect(hovered.adjusted(-1, -1, 1, 1));
    p.setRenderHint(QPainter::Antialiasing);
    // A graph launch links to every kernel of its graph: one line to each on screen.
    auto link = [&](const QRectF& to_rect) {
        if (to_rect.isEmpty()) return;
        p.drawRect(to_rect.adjusted(-1, -1, 1, 1));
        if (hovered.isEmpty()) return;
        const bool down = to_rect.top() > hovered.top();
        const QPointF from(hovered.left(), down ? hovered.bottom() : hovered.top());
        const QPointF to(to_rect.left(), down ? to_rect.top() : to_rect.bottom());
        p.drawLine(from, to);
    };
    if (s_.linked_all.empty()) link(linked);
    for (std::size_t i : s_.linked_all) link(span_rect(i, width));
    p.restore();
}

void TimelinePainter::paint_labels(QPainter& p, int height) const {
    p.fillRect(0, 0, Layout::kLabelWidth, height, palette_.color(QPalette::Window));
    for (const auto& row : s_.layout->rows()) {
        const int top = row_top(row);
        if (top + row.height < Layout::kAxisHeight || top > height) continue;
        p.setPen(palette_.color(QPalette::WindowText));
        const bool header = row.kind == Layout::RowKind::Group;
        QFont font = p.font();
        font.setBold(header);
        p.setFont(font);
        const int indent = header || !s_.layout->grouped() ? 6 : 16;  // lanes under their header
        const int w = Layout::kLabelWidth - 4 - indent;
        const QFontMetrics fm(font);
        p.drawText(QRect(indent, top, w, Layout::kSpanHeight), Qt::AlignVCenter,
                   header ? fm.elidedText(row.label, Qt::ElideRight, w)
                          : elide_lane_label(row.label, fm, w));
        // Levels past the lane's limit share its last row: say so, and how to see them.
        if (row.levels > row.depth_rows && row.depth_rows >= 2) {
            p.setPen(palette_.color(QPalette::Link));
            p.drawText(QRect(indent, top + Layout::kSpanHeight, w, Layout::kSpanHeight),
                       Qt::AlignVCenter, fm.elidedText(more_levels_text(row), Qt::ElideRight, w));
        }
    }
    QFont plain = p.font();
    plain.setBold(false);
    p.setFont(plain);
    p.setPen(palette_.color(QPalette::Mid));
    p.drawLine(Layout::kLabelWidth - 1, 0, Layout::kLabelWidth - 1, height);
}

}  // namespace tokenscope::ui
