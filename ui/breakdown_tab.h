#pragma once

#include <QFutureWatcher>
#include <vector>

#include "analysis/attribution.h"
#include "analysis/verdict.h"
#include "run_tab.h"

class QLabel;
class QPushButton;
class QTableView;

namespace tokenscope::ui {

class BreakdownPlot;
class PhaseSummaryModel;
class VerdictRuleModel;

// The Breakdown tab: stacked bars per step by attribution category with the ITL
// floor line, the per-phase summary and the verdict with the numbers behind it,
// from analysis::attribute_steps and assess_run (computed off the GUI thread).
class BreakdownTab : public RunTab {
    Q_OBJECT
  public:
    explicit BreakdownTab(QWidget* parent = nullptr);
    void setRun(const OpenRun& run) override;
    void setUnit(TimeUnit unit) override;

    BreakdownPlot* plot() const { return plot_; }
    PhaseSummaryModel* phaseModel() const { return phases_; }
    VerdictRuleModel* ruleModel() const { return rules_; }
    QString verdictText() const;
    bool ready() const { return ready_; }

  public slots:
    void exportPlot();

  signals:
    void breakdownReady();

  private:
    struct Result {
        std::vector<analysis::StepAttribution> steps;
        analysis::RunAssessment assessment;
    };
    void show(const Result& result);
    QString verdictHtml(const analysis::RunAssessment& a) const;

    BreakdownPlot* plot_;
    PhaseSummaryModel* phases_;
    VerdictRuleModel* rules_;
    QLabel* verdict_;
    QPushButton* export_;
    OpenRun run_;
    TimeUnit unit_ = TimeUnit::Milliseconds;
    QFutureWatcher<Result> watcher_;
    std::optional<analysis::RunAssessment> assessment_;
    bool ready_ = false;
};

}  // namespace tokenscope::ui
