#include "timeline_tab.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>
#include <exception>
#include <string>
#include <vector>

#include "timeline_view.h"
#include "token_selector.h"
#include "ui/shared/background_query.h"

namespace tokenscope::ui {

TimelineTab::TimelineTab(QWidget* parent)
    : RunTab(parent),
      view_(new TimelineView(this)),
      tokens_(new TokenSelector(view_)),
      search_(new QLineEdit(this)),
      matches_(new QLabel(this)),
      query_(new BackgroundQuery(this)) {
    connect(query_, &BackgroundQuery::busyChanged, this,
            [this](bool busy) { emit busyChanged(busy, queryText()); });
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
    // A run whose activities stayed in its file (DESIGN.md section 17) is searched by a pass
    // over the file, which Enter starts: not as one types.
    query_->clear();
    file_finder_.clear();
    search_->setPlaceholderText(
        searchesFile() ? tr("Find by name: Enter searches the file (one pass over %L1 activities)")
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
    if (searchesFile()) {  // a new text: the last pass's matches no longer apply
        query_->clear();
        file_finder_.clear();
        view_->clearMatch();
        return showPosition();
    }
    finder_.set_query(run_.valid() ? run_.data.get() : nullptr, search_->text());
    if (finder_.count() > 0)
        view_->reveal(finder_.seek(view_->viewport().start_ns()));
    else
        view_->clearMatch();
    showPosition();
}

void TimelineTab::findNext() {
    if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) return findPrevious();
    if (searchesFile()) {
        if (file_finder_.text() != search_->text()) return searchFile();
        if (file_finder_.count() > 0) revealMatch(file_finder_.next());
        return showPosition();
    }
    if (finder_.count() > 0) view_->reveal(finder_.next());
    showPosition();
}

void TimelineTab::findPrevious() {
    if (searchesFile()) {
        if (file_finder_.text() != search_->text()) return searchFile();
        if (file_finder_.count() > 0) revealMatch(file_finder_.previous());
        return showPosition();
    }
    if (finder_.count() > 0) view_->reveal(finder_.previous());
    showPosition();
}

void TimelineTab::showPosition() {
    if (searchesFile()) {
        if (query_->busy())
            matches_->setText(tr("searching the file…"));
        else if (search_->text().trimmed().isEmpty() || file_finder_.text() != search_->text())
            matches_->clear();
        else if (file_finder_.count() == 0)
            matches_->setText(tr("no match"));
        else
            matches_->setText(QStringLiteral("%1 / %2%3")
                                  .arg(file_finder_.position())
                                  .arg(file_finder_.count())
                                  .arg(file_finder_.count() == FileSearch::kMaxMatches
                                           ? tr(" (the first)")
                                           : QString()));
        return;
    }
    if (search_->text().trimmed().isEmpty())
        matches_->clear();
    else if (finder_.count() == 0)
        matches_->setText(tr("no match"));
    else
        matches_->setText(QStringLiteral("%1 / %2").arg(finder_.position()).arg(finder_.count()));
}

// One pass over the file's lanes in the background (Cancel stops it); then the first match
// from where the view shows, as typing shows it for a run in memory.
void TimelineTab::searchFile() {
    const QString text = search_->text();
    if (text.trimmed().isEmpty()) return;
    struct Found {
        std::vector<FileSearch::Match> matches;
        QString error;
    };
    const std::string path = run_.path.toStdString();
    query_->run(
        tr("Searching the file for \"%1\"…").arg(text),
        [path, data = run_.data, text](const trace::StopToken& stop) {
            Found f;
            try {
                f.matches = FileSearch::scan(path, *data, text, stop);
            } catch (const trace::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                f.error = QString::fromUtf8(e.what());  // names the file
            }
            return f;
        },
        [this, text](const Found& f) {
            file_finder_.set(text, f.matches);
            if (!f.error.isEmpty()) {
                matches_->setText(tr("search failed"));
                matches_->setToolTip(f.error);
                return;
            }
            if (file_finder_.count() > 0)
                revealMatch(file_finder_.seek(view_->viewport().start_ns()));
            showPosition();
        });
    showPosition();
}

void TimelineTab::revealMatch(const FileSearch::Match& m) {
    view_->revealAt(m.lane, m.start_ns, m.end_ns);
}

bool TimelineTab::queryBusy() const {
    return query_->busy();
}

QString TimelineTab::queryText() const {
    return query_->what();
}

void TimelineTab::cancelQuery() {
    if (query_->cancel()) showPosition();
}

}  // namespace tokenscope::ui
