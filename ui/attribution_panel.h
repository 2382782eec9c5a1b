#pragma once

#include <QFutureWatcher>
#include <QWidget>

#include "analysis/attribution.h"
#include "analysis/verdict.h"
#include "open_run.h"
#include "time_format.h"
#include "trace/stop_source.h"

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
    ~AttributionPanel() override;

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
    QFutureWatcher<analysis::Verdict> verdict_watcher_;
    trace::StopSource verdict_stop_;  // the live assessment's; a new run stops the old one
    analysis::StepAttribution result_;
    bool has_result_ = false;
    bool pending_ = false;  // a computation whose result should be shown
};

}  // namespace tokenscope::ui
