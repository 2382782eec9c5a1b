#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <optional>

#include "analysis/attribution.h"
#include "analysis/verdict.h"
#include "background_query.h"
#include "open_run.h"
#include "time_format.h"

class QLabel;
class QTableWidget;

namespace tokenscope::ui {

// The right-hand dock: the run's verdict, the attribution of the selected
// range (six categories with time, share and hidden time) and the details of
// what was clicked. Attribution runs off the GUI thread.
class AttributionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit AttributionPanel(QWidget* parent = nullptr);

    void setRun(const OpenRun& run);
    void setUnit(TimeUnit unit);
    void selectRange(qint64 t0, qint64 t1);
    void clearSelection();
    void showDetails(const QString& html);

    // The verdict text; filled in once the background assessment finishes.
    QString verdictText() const;
    bool hasAttribution() const { return has_result_; }
    const analysis::StepAttribution& attribution() const { return result_; }
    QTableWidget* table() const { return table_; }

  signals:
    void attributionReady();
    void verdictReady();

  private:
    void showResult();
    void showVerdict();
    void showVerdictResult(const analysis::Verdict& verdict);

    OpenRun run_;
    TimeUnit unit_ = TimeUnit::Milliseconds;
    QLabel* verdict_;
    QLabel* range_;
    QTableWidget* table_;
    QLabel* details_;
    QFutureWatcher<analysis::StepAttribution> watcher_;
    BackgroundQuery* verdict_query_;
    std::optional<analysis::Verdict> verdict_result_;  // the shown run's, once assessed
    analysis::StepAttribution result_;
    bool has_result_ = false;
    bool pending_ = false;  // a computation whose result should be shown
};

}  // namespace tokenscope::ui
