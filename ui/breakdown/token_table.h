#pragma once

#include <QWidget>

#include "ui/plots/time_format.h"
#include "ui/shared/open_run.h"

class QComboBox;
class QLabel;
class QTableView;

namespace tokenscope::ui {

class BackgroundQuery;
class SlowTokenModel;

// A joined run's tokens in the Breakdown tab: the slowest of the run, or every token
// of one chosen request, each with its iteration, batch, attribution and top kernels
// (computed off the GUI thread). Clicking a row emits tokenActivated, which selects
// the token's iteration and kernels in the timeline. Hidden for other runs.
class TokenTable : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kSlowest = 50;
    // Requests listed in the chooser; a run with more lists the first ones by id.
    static constexpr int kMaxRequestChoices = 5000;

    explicit TokenTable(QWidget* parent = nullptr);
    void setRun(const OpenRun& run);
    void setUnit(plots::TimeUnit unit);
    // Shows the tokens of `request` (the chooser follows); 0 = the slowest tokens.
    void showRequest(qint64 request);

    SlowTokenModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    QComboBox* requestChoice() const { return choice_; }
    BackgroundQuery* query() const { return query_; }
    bool ready() const { return ready_; }

  signals:
    void tokenActivated(int step);
    void tokensReady();

  private:
    void recompute();

    QComboBox* choice_;
    QLabel* status_;
    QTableView* view_;
    SlowTokenModel* model_;
    BackgroundQuery* query_;
    OpenRun run_;
    bool ready_ = false;
};

}  // namespace tokenscope::ui
