#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "analysis/attribution/attribution.h"
#include "analysis/attribution/run_analysis.h"
#include "ui/plots/time_format.h"
#include "ui/shared/open_run.h"

class QGroupBox;
class QLabel;
class QTableWidget;

namespace tokenscope::ui {

class BackgroundQuery;
class RunAnalyzer;
class StepPatternPanel;

// The right-hand dock: the run's verdict, the attribution of the selected
// range (six categories with time, share and hidden time) and the details of
// what was clicked; a foreign trace without steps gets the step-pattern panel below the
// verdict. The verdict is read from the run's analysis (RunAnalyzer); the
// selection's attribution runs on a BackgroundQuery: a new selection, a cleared one or
// another run stops it.
class AttributionPanel : public QWidget {
    Q_OBJECT
  public:
    explicit AttributionPanel(QWidget* parent = nullptr);

    void setRun(const OpenRun& run);
    void setUnit(plots::TimeUnit unit);
    void selectRange(qint64 t0, qint64 t1);
    void clearSelection();
    void showDetails(const QString& html);
    // Reads the verdict from `analyzer` (the window's, shared with the Breakdown tab)
    // instead of one of its own.
    void useAnalyzer(RunAnalyzer* analyzer);

    // The verdict text; filled in once the background assessment finishes.
    QString verdictText() const;
    bool hasAttribution() const { return has_result_; }
    const analysis::StepAttribution& attribution() const { return result_; }
    QTableWidget* table() const { return table_; }
    BackgroundQuery* rangeQuery() const { return range_query_; }
    // Shown when the run has no steps because no marker matched a preset.
    StepPatternPanel* stepPatternPanel() const { return no_steps_; }

  signals:
    void attributionReady();
    void verdictReady();

  private:
    void showResult();
    void showVerdict();
    void showVerdictResult();

    OpenRun run_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
    QLabel* verdict_;
    QLabel* range_;
    QTableWidget* table_;
    QLabel* details_;
    StepPatternPanel* no_steps_;
    QGroupBox* no_steps_box_;
    BackgroundQuery* range_query_;
    RunAnalyzer* analyzer_ = nullptr;
    std::vector<QMetaObject::Connection> analyzer_links_;
    std::shared_ptr<const analysis::RunAnalysis> analysis_;  // the shown run's, once ready
    analysis::StepAttribution result_;
    bool has_result_ = false;
};

}  // namespace tokenscope::ui
