#include "heatmap_marks.h"

#include <algorithm>
#include <cmath>

namespace tokenscope::ui::plots {

HeatmapMarks::HeatmapMarks(QCustomPlot* plot, QCPAxis* key_axis, QCPAxis* value_axis)
    : QCPLayerable(plot), key_(key_axis), value_(value_axis) {}

void HeatmapMarks::setBreaches(std::vector<std::pair<std::size_t, std::size_t>> cells) {
    breaches_ = std::move(cells);
}

void HeatmapMarks::setFlags(std::vector<std::pair<std::size_t, std::size_t>> cells) {
    flags_ = std::move(cells);
}

void HeatmapMarks::setColors(const QColor& breach, const QColor& flag) {
    breach_color_ = breach;
    flag_color_ = flag;
}

void HeatmapMarks::setBaseline(std::size_t columns, std::size_t column_count) {
    baseline_ = columns < column_count ? columns : 0;
}

void HeatmapMarks::applyDefaultAntialiasingHint(QCPPainter* painter) const {
    painter->setAntialiasing(false);
}

QRect HeatmapMarks::clipRect() const {
    return key_->axisRect()->rect();
}

QRectF HeatmapMarks::cellRect(std::size_t row, std::size_t column) const {
    const double c = static_cast<double>(column), r = static_cast<double>(row);
    const QPointF a(key_->coordToPixel(c - 0.5), value_->coordToPixel(r - 0.5));
    const QPointF b(key_->coordToPixel(c + 0.5), value_->coordToPixel(r + 0.5));
    return QRectF(a, b).normalized();
}

void HeatmapMarks::draw(QCPPainter* painter) {
    const QRectF visible = clipRect();
    painter->setBrush(Qt::NoBrush);
    for (const auto& [row, column] : breaches_) {
        const QRectF r = cellRect(row, column);
        if (!r.intersects(visible)) continue;
        // Inset so neighbouring outlines stay apart; thinner when cells are tiny.
        const double w = std::clamp(std::min(r.width(), r.height()) / 6.0, 1.0, 2.5);
        painter->setPen(QPen(breach_color_, w));
        painter->drawRect(r.adjusted(w / 2, w / 2, -w / 2, -w / 2));
    }
    if (baseline_ > 0) {
        const double x = key_->coordToPixel(static_cast<double>(baseline_) - 0.5);
        painter->setPen(QPen(flag_color_, 2, Qt::DashLine));
        painter->drawLine(QPointF(x, visible.top()), QPointF(x, visible.bottom()));
    }
    painter->setAntialiasing(true);
    for (const auto& [row, column] : flags_) {
        const QRectF r = cellRect(row, column);
        if (!r.intersects(visible)) continue;
        const double s = std::clamp(std::min(r.width(), r.height()) * 0.45, 4.0, 10.0);
        const QPolygonF tri(
            {r.topLeft(), r.topLeft() + QPointF(s, 0), r.topLeft() + QPointF(0, s)});
        painter->setPen(QPen(Qt::black, 1));
        painter->setBrush(flag_color_);
        painter->drawPolygon(tri);
    }
}

}  // namespace tokenscope::ui::plots
