#include "compare_tab.h"

#include <QLabel>
#include <QVBoxLayout>

namespace tokenscope::ui {

CompareTab::CompareTab(QWidget* parent) : RunTab(parent), label_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    label_->setWordWrap(true);
    label_->setAlignment(Qt::AlignCenter);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label_);
    refresh();
}

void CompareTab::compare(const OpenRun& a, const OpenRun& b) {
    a_ = a;
    b_ = b;
    refresh();
}

void CompareTab::refresh() {
    const QString what = QStringLiteral(
        "A and B heatmaps on one shared colour scale, a delta heatmap (B − A), the metric delta "
        "table with significance and a sortable per-kernel delta table will appear here.");
    if (!a_.valid() || !b_.valid()) {
        label_->setText(QStringLiteral("Drop two files on the window, or one file on this tab, "
                                       "to compare them.<br><br>") +
                        what);
        return;
    }
    label_->setText(QStringLiteral("<b>A:</b> %1 <i>(%2)</i><br><b>B:</b> %3 <i>(%4)</i><br><br>%5")
                        .arg(a_.name().toHtmlEscaped(), a_.path.toHtmlEscaped(),
                             b_.name().toHtmlEscaped(), b_.path.toHtmlEscaped(), what));
}

}  // namespace tokenscope::ui
