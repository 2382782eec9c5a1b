#include "breakdown_plot.h"

#include <algorithm>

#include "ui/plots/category_colors.h"
#include "ui/plots/plot_style.h"

namespace tokenscope::ui {

BreakdownPlot::BreakdownPlot(QWidget* parent) : QCustomPlot(parent) {
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(),
                                QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    QCPBars* below = nullptr;
    for (analysis::Category c : analysis::kCategories) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(plots::CategoryColors::label(c));
        const QColor color = plots::CategoryColors::color(c);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130), 0));
        bars->setWidth(0.8);
        if (below != nullptr) bars->moveAbove(below);
        below = bars;
        bars_[static_cast<std::size_t>(c)] = bars;
    }
    floor_ = new QCPGraph(xAxis, yAxis);
    floor_->setName(tr("ITL floor (roofline)"));
    floor_->setLineStyle(QCPGraph::lsStepCenter);
    floor_->setPen(QPen(QColor(0xCC, 0x00, 0x33), 2, Qt::DashLine));
    xAxis->setLabel(tr("step (in run order)"));
    xAxis->grid()->setVisible(false);
    // The legend sits in its own row under the plot: inside the axis rect it
    // covered the last bars.
    legend->setVisible(true);
    axisRect()->insetLayout()->take(legend);
    plotLayout()->addElement(2, 0, legend);
    plotLayout()->setRowStretchFactor(2, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(4);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    plots::PlotStyle::apply(this, palette());
    title_->setTextColor(palette().color(QPalette::WindowText));
    clear(QString());
}

void BreakdownPlot::setSteps(std::vector<analysis::StepAttribution> steps,
                             std::vector<std::int64_t> floors_ns, const QString& title,
                             std::vector<trace::Phase> phases) {
    steps_ = std::move(steps);
    floors_ = std::move(floors_ns);
    phases_ = std::move(phases);
    title_->setText(title);
    refill();
}

void BreakdownPlot::setPhaseFilter(std::optional<trace::Phase> phase) {
    filter_ = phase;
    refill();
}

std::optional<trace::Phase> BreakdownPlot::defaultFilter(
    const std::vector<analysis::StepAttribution>& steps, const std::vector<trace::Phase>& phases) {
    constexpr double kDwarfs = 10.0;
    std::vector<std::int64_t> decode;
    std::int64_t longest_prefill = 0;
    for (std::size_t i = 0; i < steps.size() && i < phases.size(); ++i) {
        const std::int64_t d = steps[i].end_ns - steps[i].start_ns;
        if (phases[i] == trace::Phase::Decode) decode.push_back(d);
        if (phases[i] == trace::Phase::Prefill) longest_prefill = std::max(longest_prefill, d);
    }
    if (decode.empty() || longest_prefill == 0) return std::nullopt;
    auto mid = decode.begin() + static_cast<std::ptrdiff_t>(decode.size() / 2);
    std::nth_element(decode.begin(), mid, decode.end());
    if (static_cast<double>(longest_prefill) <= kDwarfs * static_cast<double>(*mid))
        return std::nullopt;
    return trace::Phase::Decode;
}

double BreakdownPlot::axisTop() const {
    return yAxis->range().upper;
}

void BreakdownPlot::clear(const QString& title) {
    setSteps({}, {}, title);
}

void BreakdownPlot::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    refill();
}

QString BreakdownPlot::title() const {
    return title_->text();
}

void BreakdownPlot::refill() {
    const double per = plots::TimeFormat::ns_per_unit(unit_);
    // Indices of the steps shown, in run order.
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < steps_.size(); ++i)
        if (!filter_ || (i < phases_.size() && phases_[i] == *filter_)) shown.push_back(i);
    const int n = static_cast<int>(shown.size());
    shown_ = n;
    QVector<double> keys(n);
    for (int i = 0; i < n; ++i) keys[i] = i;
    double top = 0;
    for (std::size_t c = 0; c < analysis::kCategoryCount; ++c) {
        QVector<double> values(n);
        for (int i = 0; i < n; ++i) values[i] = steps_[shown[std::size_t(i)]].assigned[c] / per;
        bars_[c]->setData(keys, values, true);
    }
    for (std::size_t i : shown) top = std::max(top, (steps_[i].end_ns - steps_[i].start_ns) / per);
    QVector<double> fkeys, fvalues;
    for (int i = 0; i < n; ++i) {
        const std::size_t k = shown[std::size_t(i)];
        if (k < floors_.size() && floors_[k] > 0) {
            fkeys << i;
            fvalues << floors_[k] / per;
            top = std::max(top, fvalues.back());
        }
    }
    floor_->setData(fkeys, fvalues, true);
    floor_->setVisible(!fkeys.isEmpty());
    if (floor_->visible())
        floor_->addToLegend();
    else
        floor_->removeFromLegend();
    yAxis->setLabel(tr("time per step (%1)").arg(plots::TimeFormat::suffix(unit_)));
    xAxis->setRange(-0.6, std::max(n, 1) - 0.4);
    yAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    replot();
}

void BreakdownPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        plots::PlotStyle::apply(this, palette());
        title_->setTextColor(palette().color(QPalette::WindowText));
        replot();
    }
}

}  // namespace tokenscope::ui
