#include "breakdown_plot.h"

#include <algorithm>

#include "category_colors.h"
#include "plot_style.h"

namespace tokenscope::ui {

BreakdownPlot::BreakdownPlot(QWidget* parent) : QCustomPlot(parent) {
    plotLayout()->insertRow(0);
    title_ = new QCPTextElement(this, QString(),
                                QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->addElement(0, 0, title_);
    QCPBars* below = nullptr;
    for (analysis::Category c : analysis::kCategories) {
        auto* bars = new QCPBars(xAxis, yAxis);
        bars->setName(CategoryColors::label(c));
        const QColor color = CategoryColors::color(c);
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
    xAxis->setLabel(tr("step"));
    xAxis->grid()->setVisible(false);
    legend->setVisible(true);
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    PlotStyle::apply(this, palette());
    title_->setTextColor(palette().color(QPalette::WindowText));
    clear(QString());
}

void BreakdownPlot::setSteps(std::vector<analysis::StepAttribution> steps,
                             std::vector<std::int64_t> floors_ns, const QString& title) {
    steps_ = std::move(steps);
    floors_ = std::move(floors_ns);
    title_->setText(title);
    refill();
}

void BreakdownPlot::clear(const QString& title) {
    setSteps({}, {}, title);
}

void BreakdownPlot::setUnit(TimeUnit unit) {
    unit_ = unit;
    refill();
}

QString BreakdownPlot::title() const {
    return title_->text();
}

void BreakdownPlot::refill() {
    const double per = TimeFormat::ns_per_unit(unit_);
    const int n = static_cast<int>(steps_.size());
    QVector<double> keys(n);
    for (int i = 0; i < n; ++i) keys[i] = i;
    double top = 0;
    for (std::size_t c = 0; c < analysis::kCategoryCount; ++c) {
        QVector<double> values(n);
        for (int i = 0; i < n; ++i)
            values[i] = steps_[static_cast<std::size_t>(i)].assigned[c] / per;
        bars_[c]->setData(keys, values, true);
    }
    for (const auto& s : steps_) top = std::max(top, (s.end_ns - s.start_ns) / per);
    QVector<double> fkeys, fvalues;
    for (int i = 0; i < n && i < static_cast<int>(floors_.size()); ++i)
        if (floors_[static_cast<std::size_t>(i)] > 0) {
            fkeys << i;
            fvalues << floors_[static_cast<std::size_t>(i)] / per;
            top = std::max(top, fvalues.back());
        }
    floor_->setData(fkeys, fvalues, true);
    floor_->setVisible(!fkeys.isEmpty());
    if (floor_->visible())
        floor_->addToLegend();
    else
        floor_->removeFromLegend();
    yAxis->setLabel(tr("time per step (%1)").arg(TimeFormat::suffix(unit_)));
    xAxis->setRange(-0.6, std::max(n, 1) - 0.4);
    yAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    replot();
}

void BreakdownPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        PlotStyle::apply(this, palette());
        title_->setTextColor(palette().color(QPalette::WindowText));
        replot();
    }
}

}  // namespace tokenscope::ui
