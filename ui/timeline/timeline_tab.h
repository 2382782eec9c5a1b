#pragma once

#include "timeline_search.h"
#include "ui/shared/run_tab.h"

class QLabel;
class QLineEdit;

namespace tokenscope::ui {

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

  public slots:
    void findNext();
    void findPrevious();

  private:
    void updateQuery();
    void showPosition();

    TimelineView* view_;
    TokenSelector* tokens_;
    QLineEdit* search_;
    QLabel* matches_;
    TimelineSearch finder_;
    OpenRun run_;
};

}  // namespace tokenscope::ui
