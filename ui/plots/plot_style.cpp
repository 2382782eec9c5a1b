#include "plot_style.h"

#include <qcustomplot.h>

namespace tokenscope::ui::plots {

void PlotStyle::applyAxis(QCPAxis* axis, const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlpha(40);
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
}

void PlotStyle::apply(QCustomPlot* plot, const QPalette& palette) {
    plot->setBackground(palette.brush(QPalette::Base));
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) applyAxis(axis, palette);
    if (plot->legend != nullptr) {
        plot->legend->setBrush(palette.brush(QPalette::Base));
        plot->legend->setTextColor(palette.color(QPalette::WindowText));
        plot->legend->setBorderPen(QPen(palette.color(QPalette::Mid)));
    }
}

}  // namespace tokenscope::ui::plots
