#include "fleet_compare_view.h"

#include <QVBoxLayout>

#include "analysis/heatmap/heatmap_diff.h"
#include "ui/plots/fleet_plot_data.h"
#include "ui/plots/heatmap_plot.h"

namespace tokenscope::ui {

FleetCompareView::FleetCompareView(QWidget* parent)
    : QWidget(parent),
      a_(new plots::HeatmapPlot(this)),
      b_(new plots::HeatmapPlot(this)),
      delta_(new plots::HeatmapPlot(this)) {
    a_->setObjectName(QStringLiteral("fleetEarlier"));
    b_->setObjectName(QStringLiteral("fleetLater"));
    delta_->setObjectName(QStringLiteral("fleetDelta"));
    auto* layout = new QVBoxLayout(this);
    for (plots::HeatmapPlot* p : {a_, b_, delta_}) {
        p->setLegendNoteVisible(false);
        p->setMinimumSize(400, 160);  // not the title's width: it names the source
        layout->addWidget(p, 1);
    }
    clear();
}

void FleetCompareView::clear() {
    for (plots::HeatmapPlot* p : {a_, b_, delta_}) {
        p->setHeatmap(plots::HeatmapPlotData{});
        p->setEmptyText(tr("Choose “Compare with” in File > Open Prometheus…"));
    }
}

void FleetCompareView::setMatrices(const fleet::FleetMatrix& earlier,
                                   const fleet::FleetMatrix& later, const QString& source) {
    const auto diff = analysis::diff_heatmaps(earlier.map, later.map);
    plots::HeatmapPlotData a = plots::FleetPlotData::plotData(earlier, source);
    plots::HeatmapPlotData b = plots::FleetPlotData::plotData(later, source);
    a.title = tr("A: ") + a.title;
    b.title = tr("B: ") + b.title;
    plots::HeatmapPlotData d = plots::HeatmapPlotData::fromDiff(
        diff, later.map.columns, later.map.columns.empty() ? 0 : later.map.columns.front().start_ns,
        b.metric);
    d.title = tr("B \u2212 A, windows matched by position");
    d.column_labels = b.column_labels;
    d.column_axis = b.column_axis;
    d.value_name = b.value_name;
    a_->setHeatmap(std::move(a));
    b_->setHeatmap(std::move(b));
    delta_->setHeatmap(std::move(d));
    // One scale for A and B, so equal colours are equal latencies.
    a_->setColorRange(diff.shared_min, diff.shared_max);
    b_->setColorRange(diff.shared_min, diff.shared_max);
}

}  // namespace tokenscope::ui
