#include "heatmap_tab.h"

#include <QLabel>
#include <QVBoxLayout>

namespace tokenscope::ui {
namespace {

const char* const kWhat =
    "P95 heatmap of the chosen metric (rows: kernel, request, phase, lane; columns: time windows), "
    "with a colour scale, SLA and recalibration marks. A click on a cell will zoom the timeline "
    "there.";

}  // namespace

HeatmapTab::HeatmapTab(QWidget* parent) : RunTab(parent), label_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    label_->setWordWrap(true);
    label_->setAlignment(Qt::AlignCenter);
    layout->addWidget(label_);
    setRun(OpenRun{});
}

void HeatmapTab::setRun(const OpenRun& run) {
    const QString what = QString::fromUtf8(kWhat);
    label_->setText(
        run.valid() ? QStringLiteral("<b>%1</b><br><br>%2").arg(run.name().toHtmlEscaped(), what)
                    : what);
}

}  // namespace tokenscope::ui
