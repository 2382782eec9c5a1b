#pragma once

#include "file_search.h"
#include "timeline_search.h"
#include "ui/shared/run_tab.h"

class QLabel;
class QLineEdit;

namespace tokenscope::ui {

class BackgroundQuery;
class TimelineView;
class TokenSelector;

// The Timeline tab: a search bar (find by name, next/previous) above the TimelineView.
class TimelineTab : public RunTab {
    Q_OBJECT
  public:
    explicit TimelineTab(QWidget* parent = nullptr);
    void setRun(const OpenRun& run) override;
    void setUnit(plots::TimeUnit unit) override;
    TimelineView* view() const { return view_; }
    QLineEdit* searchBox() const { return search_; }
    // A joined run's tokens: selecting one selects its iteration and its kernels.
    TokenSelector* tokens() const { return tokens_; }
    bool selectToken(int step);
    // The search of a run whose activities stayed in its file (FileSearch): a pass over the
    // file in the background, started by Enter.
    const FileSearch& fileSearch() const { return file_finder_; }
    bool queryBusy() const override;
    QString queryText() const override;

  public slots:
    void findNext();
    void findPrevious();
    void cancelQuery() override;

  private:
    void updateQuery();
    void showPosition();
    bool searchesFile() const { return run_.valid() && run_.data->in_file.has_value(); }
    void searchFile();
    void revealMatch(const FileSearch::Match& m);

    TimelineView* view_;
    TokenSelector* tokens_;
    QLineEdit* search_;
    QLabel* matches_;
    TimelineSearch finder_;
    FileSearch file_finder_;
    BackgroundQuery* query_;  // the file search's pass
    OpenRun run_;
};

}  // namespace tokenscope::ui
