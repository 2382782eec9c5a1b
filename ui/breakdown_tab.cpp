#include "breakdown_tab.h"

#include <QLabel>
#include <QVBoxLayout>

namespace tokenscope::ui {
namespace {

const char* const kWhat =
    "Stacked bars per step by attribution category, the ITL floor line, a per-phase summary table "
    "and the verdict with its numbers.";

}  // namespace

BreakdownTab::BreakdownTab(QWidget* parent) : RunTab(parent), label_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    label_->setWordWrap(true);
    label_->setAlignment(Qt::AlignCenter);
    layout->addWidget(label_);
    setRun(OpenRun{});
}

void BreakdownTab::setRun(const OpenRun& run) {
    const QString what = QString::fromUtf8(kWhat);
    label_->setText(
        run.valid() ? QStringLiteral("<b>%1</b><br><br>%2").arg(run.name().toHtmlEscaped(), what)
                    : what);
}

}  // namespace tokenscope::ui
