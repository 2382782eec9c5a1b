#include "timeline_tab.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include "timeline_view.h"
#include "token_selector.h"

namespace tokenscope::ui {

TimelineTab::TimelineTab(QWidget* parent)
    : RunTab(parent),
      view_(new TimelineView(this)),
      tokens_(new TokenSelector(view_)),
      search_(new QLineEdit(this)),
      matches_(new QLabel(this)) {
    search_->setClearButtonEnabled(true);
    auto* previous = new QToolButton(this);
    previous->setArrowType(Qt::LeftArrow);
    previous->setToolTip(tr("Previous match"));
    auto* next = new QToolButton(this);
    next->setArrowType(Qt::RightArrow);
    next->setToolTip(tr("Next match"));
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show the whole run (Home)"));
    auto* hint = new QLabel(tr("wheel: zoom · drag: pan · shift/right-drag: select"), this);
    hint->setForegroundRole(QPalette::PlaceholderText);

    auto* bar = new QHBoxLayout;
    bar->addWidget(search_, 1);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(matches_);
    bar->addSpacing(12);
    bar->addWidget(fit);
    bar->addWidget(hint);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(view_, 1);

    connect(search_, &QLineEdit::textChanged, this, &TimelineTab::updateQuery);
    connect(search_, &QLineEdit::returnPressed, this, &TimelineTab::findNext);
    connect(previous, &QToolButton::clicked, this, &TimelineTab::findPrevious);
    connect(next, &QToolButton::clicked, this, &TimelineTab::findNext);
    connect(fit, &QToolButton::clicked, view_, &TimelineView::fitAll);
}

void TimelineTab::setRun(const OpenRun& run) {
    run_ = run;
    // Search walks the activities in memory; a run whose activities stayed in its file
    // (DESIGN.md section 17) has none there, so the box says so instead of "no match".
    const bool in_file = run.valid() && run.data->in_file;
    if (in_file) search_->clear();
    search_->setEnabled(!in_file);
    search_->setPlaceholderText(
        in_file ? tr("Find: not available for a run whose %L1 activities stay in its file")
                      .arg(static_cast<qlonglong>(run.data->activity_totals().activities()))
                : tr("Find by name (Enter: next, Shift+Enter: previous)"));
    view_->setRun(run);
    tokens_->clear();
    updateQuery();
}

bool TimelineTab::selectToken(int step) {
    return tokens_->select(step);
}

void TimelineTab::setUnit(plots::TimeUnit unit) {
    view_->setUnit(unit);
}

// Find as you type: the view goes to the first match from where it shows, zoomed to it
// and highlighted; Enter and the arrows step on.
void TimelineTab::updateQuery() {
    finder_.set_query(run_.valid() ? run_.data.get() : nullptr, search_->text());
    if (finder_.count() > 0)
        view_->reveal(finder_.seek(view_->viewport().start_ns()));
    else
        view_->clearMatch();
    showPosition();
}

void TimelineTab::findNext() {
    if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) return findPrevious();
    if (finder_.count() > 0) view_->reveal(finder_.next());
    showPosition();
}

void TimelineTab::findPrevious() {
    if (finder_.count() > 0) view_->reveal(finder_.previous());
    showPosition();
}

void TimelineTab::showPosition() {
    if (search_->text().trimmed().isEmpty())
        matches_->clear();
    else if (finder_.count() == 0)
        matches_->setText(tr("no match"));
    else
        matches_->setText(QStringLiteral("%1 / %2").arg(finder_.position()).arg(finder_.count()));
}

}  // namespace tokenscope::ui
