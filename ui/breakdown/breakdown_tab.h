#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "analysis/attribution/run_analysis.h"
#include "ui/shared/run_tab.h"

class QLabel;
class QPushButton;
class QTableView;

class QComboBox;
class QStackedWidget;

namespace tokenscope::ui {

class BackgroundQuery;
class BreakdownPlot;
class RunAnalyzer;
class PhaseSummaryModel;
class RoleSummaryModel;
class ToolFiguresPanel;
class StepPatternPanel;
class TokenTable;
class VerdictRuleModel;

// The Breakdown tab: stacked bars per step by attribution category with the ITL
// floor line, the per-phase summary and the verdict with the numbers behind it, read
// from the run's analysis (RunAnalyzer, computed off the GUI thread). A foreign trace
// without steps shows the step-pattern panel in the plot's place.
class BreakdownTab : public RunTab {
    Q_OBJECT
  public:
    explicit BreakdownTab(QWidget* parent = nullptr);
    void setRun(const OpenRun& run) override;
    void setUnit(plots::TimeUnit unit) override;
    bool queryBusy() const override;
    QString queryText() const override;

    BreakdownPlot* plot() const { return plot_; }
    PhaseSummaryModel* phaseModel() const { return phases_; }
    RoleSummaryModel* roleModel() const { return roles_; }
    ToolFiguresPanel* toolFigures() const { return figures_; }
    VerdictRuleModel* ruleModel() const { return rules_; }
    // A joined run's tokens (hidden for other runs); a click emits tokenActivated.
    TokenTable* tokenTable() const { return tokens_; }
    // In the plot's place when the run has no steps because no marker matched a preset.
    StepPatternPanel* stepPatternPanel() const { return no_steps_; }
    QString verdictText() const;
    bool ready() const { return ready_; }
    BackgroundQuery* query() const;
    // Reads the analysis of `analyzer` (the window's, shared with the Attribution dock)
    // instead of one of its own.
    void useAnalyzer(RunAnalyzer* analyzer);

  public slots:
    // The attribution being computed is dropped; the tab says so until the next run.
    void cancelQuery() override;
    void exportPlot();

  signals:
    void breakdownReady();

  private:
    void showAnalysis();
    void showError(const QString& error);
    QString verdictHtml(const analysis::RunAssessment& a) const;

    BreakdownPlot* plot_;
    StepPatternPanel* no_steps_;
    QStackedWidget* chart_;  // the plot, or the no-steps panel
    PhaseSummaryModel* phases_;
    RoleSummaryModel* roles_;
    ToolFiguresPanel* figures_;
    VerdictRuleModel* rules_;
    QLabel* verdict_;
    QTableView* rule_table_;  // hidden when there is no verdict
    QPushButton* export_;
    QComboBox* phase_filter_;  // objectName "breakdownPhaseFilter"
    TokenTable* tokens_;
    OpenRun run_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
    RunAnalyzer* analyzer_;
    std::vector<QMetaObject::Connection> analyzer_links_;
    std::shared_ptr<const analysis::RunAnalysis> analysis_;  // the shown run's, once ready
    bool ready_ = false;
};

}  // namespace tokenscope::ui
