#include "token_track.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <array>

#include "timeline_painter.h"
#include "ui/plots/category_colors.h"

namespace tokenscope::ui {
namespace {

using Layout = TimelineLayout;

const Layout::Row* row_of_kind(const TimelineScene& s, Layout::RowKind kind) {
    if (s.layout == nullptr) return nullptr;
    for (const auto& r : s.layout->rows())
        if (r.kind == kind) return &r;
    return nullptr;
}

int top_of(const TimelineScene& s, const Layout::Row& row) {
    return Layout::kAxisHeight + row.y - s.scroll_y;
}

QRectF span(const TimelineScene& s, const trace::Step& st, double y) {
    const double x0 = s.viewport.x_of(st.start_ns);
    const double x1 = s.viewport.x_of(st.end_ns);
    return QRectF(x0, y, std::max(2.0, x1 - x0 - 1.0), Layout::kSpanHeight - 2);
}

}  // namespace

QColor TokenTrack::color(std::int64_t itl_ns, std::int64_t median_ns) {
    if (itl_ns < 0) return QColor(0x6A, 0x4C, 0x93);  // first token: the prefill colour
    const QColor normal(0x56, 0x8C, 0xC8), slow(0xD5, 0x5E, 0x00);
    if (median_ns <= 0) return normal;
    // 1.5x the median and below reads normal; 4x and above fully slow.
    const double ratio = static_cast<double>(itl_ns) / static_cast<double>(median_ns);
    const double f = std::clamp((ratio - 1.5) / 2.5, 0.0, 1.0);
    auto mix = [f](int a, int b) { return static_cast<int>(a + (b - a) * f); };
    return QColor(mix(normal.red(), slow.red()), mix(normal.green(), slow.green()),
                  mix(normal.blue(), slow.blue()));
}

QRectF TokenTrack::rect(const TimelineScene& s, std::size_t step) {
    const Layout::Row* row = row_of_kind(s, Layout::RowKind::Tokens);
    if (row == nullptr || s.index == nullptr || !s.index->requests().is_token(step)) return {};
    const int slot = s.index->requests().slot_of(step);
    return span(s, s.index->run().steps[step], top_of(s, *row) + slot * Layout::kSpanHeight + 1);
}

int TokenTrack::at(const TimelineScene& s, const Layout::Row& row, int content_y, double plot_x) {
    if (s.index == nullptr) return -1;
    const auto& track = s.index->requests();
    const int slot = (content_y - row.y) / Layout::kSpanHeight;
    // Two pixels of slack, as for activities, so a thin token can still be clicked.
    const auto t0 = static_cast<std::int64_t>(s.viewport.time_at(plot_x - 2));
    const auto t1 = static_cast<std::int64_t>(s.viewport.time_at(plot_x + 2)) + 1;
    const double t = s.viewport.time_at(plot_x);
    const auto& steps = s.index->run().steps;
    const auto& order = s.index->steps_by_start();
    const auto r = s.index->visible_steps(t0, t1);
    int best = -1;
    double best_dist = 1e300;
    for (std::size_t k = r.begin; k < r.end; ++k) {
        const std::size_t i = order[k];
        if (track.slot_of(i) != slot) continue;
        const auto& st = steps[i];
        if (st.end_ns < t0 || st.start_ns > t1) continue;
        const double dist =
            t < st.start_ns ? st.start_ns - t : (t > st.end_ns ? t - st.end_ns : 0.0);
        if (dist < best_dist) best_dist = dist, best = static_cast<int>(i);
    }
    return best;
}

void TokenTrack::paint(QPainter& p, const TimelineScene& s, const Layout::Row& row, int plot_w) {
    const auto& track = s.index->requests();
    const auto& steps = s.index->run().steps;
    const auto& order = s.index->steps_by_start();
    const auto r = s.index->visible_steps(s.viewport.start_ns(), s.viewport.end_ns(plot_w));
    const int top = top_of(s, row) + 1;
    const QFontMetrics fm(p.font());
    std::array<double, RequestTrack::kMaxSlots> last_x1;
    last_x1.fill(-1e9);
    for (std::size_t k = r.begin; k < r.end; ++k) {
        const std::size_t i = order[k];
        const int slot = track.slot_of(i);
        if (slot < 0) continue;
        const QRectF rect = span(s, steps[i], top + slot * Layout::kSpanHeight);
        double& last = last_x1[static_cast<std::size_t>(slot)];
        // Narrow tokens fold into the one drawn just before them in their sub-row.
        if (rect.right() < 0 || (rect.width() < 3.0 && rect.right() < last + 1.0)) continue;
        last = rect.right();
        const QColor fill = color(track.itl_ns(i), track.median_itl_ns());
        p.fillRect(rect, fill);
        if (rect.width() > 44) {
            p.setPen(plots::CategoryColors::text_on(fill));
            const QString text =
                QStringLiteral("r%1 t%2").arg(steps[i].request).arg(steps[i].index);
            p.drawText(rect.adjusted(2, 0, -2, 0), Qt::AlignVCenter,
                       fm.elidedText(text, Qt::ElideRight, static_cast<int>(rect.width()) - 4));
        }
    }
}

void TokenTrack::paint_selection(QPainter& p, const TimelineScene& s,
                                 const TimelinePainter& painter, const QColor& text, int width,
                                 int height) {
    if (s.index == nullptr || (s.selected_token < 0 && s.selected_iteration < 0)) return;
    p.save();
    p.setClipRect(Layout::kLabelWidth, Layout::kAxisHeight, width - Layout::kLabelWidth, height);
    const QColor mark(0xCC, 0x79, 0xA7);
    p.setPen(QPen(mark, 2));
    std::size_t drawn = 0;
    for (std::size_t i : s.highlighted) {
        const QRectF r = painter.span_rect(i, width);
        if (r.isEmpty()) continue;
        p.drawRect(r.adjusted(-1, -1, 1, 1));
        if (++drawn == kMaxOutlinedKernels) break;
    }
    p.setPen(QPen(text, 2));
    if (s.selected_token >= 0) {
        const QRectF r = rect(s, static_cast<std::size_t>(s.selected_token));
        if (!r.isEmpty()) p.drawRect(r.translated(Layout::kLabelWidth, 0).adjusted(-1, -1, 1, 1));
    }
    const Layout::Row* steps = row_of_kind(s, Layout::RowKind::Steps);
    if (steps != nullptr && s.selected_iteration >= 0) {
        const auto& it = s.index->run().steps[static_cast<std::size_t>(s.selected_iteration)];
        p.setPen(QPen(mark, 2));
        p.drawRect(span(s, it, top_of(s, *steps) + 1)
                       .translated(Layout::kLabelWidth, 0)
                       .adjusted(-1, -1, 1, 1));
    }
    p.restore();
}

}  // namespace tokenscope::ui
