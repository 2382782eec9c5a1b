#include "breakdown_tab.h"

#include <QComboBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <exception>

#include "breakdown_plot.h"
#include "phase_summary_model.h"
#include "role_summary_model.h"
#include "step_pattern_panel.h"
#include "token_table.h"
#include "tool_figures_panel.h"
#include "ui/plots/plot_exporter.h"
#include "ui/shared/background_query.h"
#include "ui/shared/export_dialog.h"
#include "ui/shared/row_table.h"
#include "ui/shared/run_analyzer.h"
#include "ui/shared/run_title.h"
#include "verdict_html.h"
#include "verdict_rule_model.h"

namespace tokenscope::ui {

BreakdownTab::BreakdownTab(QWidget* parent)
    : RunTab(parent),
      plot_(new BreakdownPlot(this)),
      no_steps_(new StepPatternPanel(this)),
      chart_(new QStackedWidget(this)),
      phases_(new PhaseSummaryModel(this)),
      roles_(new RoleSummaryModel(this)),
      figures_(new ToolFiguresPanel(this)),
      rules_(new VerdictRuleModel(this)),
      verdict_(new QLabel(this)),
      rule_table_(make_row_table(rules_, this)),
      export_(new QPushButton(tr("&Export…"), this)),
      phase_filter_(new QComboBox(this)),
      tokens_(new TokenTable(this)),
      analyzer_(nullptr) {
    phase_filter_->setObjectName(QStringLiteral("breakdownPhaseFilter"));
    phase_filter_->addItem(tr("All steps"), -1);
    phase_filter_->addItem(tr("Decode steps"), int(trace::Phase::Decode));
    phase_filter_->addItem(tr("Prefill steps"), int(trace::Phase::Prefill));
    phase_filter_->setToolTip(
        tr("Which steps the plot shows; the axis scales to them (long prefill "
           "steps would flatten the decode steps)"));
    verdict_->setWordWrap(true);
    verdict_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The verdict beside its rules; a long verdict scrolls rather than pushing the rules out.
    auto* verdict_scroll = new QScrollArea(this);
    verdict_scroll->setWidget(verdict_);
    verdict_scroll->setWidgetResizable(true);
    verdict_scroll->setFrameShape(QFrame::NoFrame);
    verdict_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* verdict_page = new QWidget(this);
    auto* verdict_row = new QHBoxLayout(verdict_page);
    verdict_row->addWidget(verdict_scroll, 1);
    verdict_row->addWidget(rule_table_, 1);
    // Where the steps' time went (categories), what the GPU ran (kernel roles) and the
    // verdict, as tabs: each table gets the tab's whole width, so at a laptop's width the
    // numbers stay whole instead of scrolling sideways.
    auto* bottom = new QTabWidget(this);
    bottom->setObjectName(QStringLiteral("breakdownTables"));
    bottom->addTab(make_row_table(phases_, this), tr("Per phase (mean per step)"));
    bottom->addTab(make_row_table(roles_, this), tr("GPU time per kernel role"));
    bottom->addTab(verdict_page, tr("Verdict"));
    // A load generator's results: its own figures beside ours, the tab only for such runs.
    const int figures_tab = bottom->addTab(figures_, tr("Load generator's figures"));
    bottom->setTabVisible(figures_tab, false);
    connect(figures_, &ToolFiguresPanel::availabilityChanged, this,
            [this, bottom, figures_tab](bool has, int flagged) {
                bottom->setTabVisible(figures_tab, has);
                bottom->setTabText(figures_tab,
                                   flagged > 0
                                       ? tr("Load generator's figures (%1 flagged)").arg(flagged)
                                       : tr("Load generator's figures"));
                // Results without any activity have no breakdown: their figures are the news.
                if (has && run_.valid() && run_.data->activity_totals().activities() == 0)
                    bottom->setCurrentIndex(figures_tab);
            });
    // The panel at a readable line length, at the top of the plot's place.
    auto* panel_page = new QWidget(this);
    auto* panel_layout = new QVBoxLayout(panel_page);
    panel_layout->setContentsMargins(24, 24, 24, 24);
    no_steps_->setMaximumWidth(760);
    auto* panel_row = new QHBoxLayout;  // not an alignment: the text wraps at the full width
    panel_row->addWidget(no_steps_, 3);
    panel_row->addStretch(1);
    panel_layout->addLayout(panel_row);
    panel_layout->addStretch(1);
    chart_->addWidget(plot_);
    chart_->addWidget(panel_page);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chart_);
    split->addWidget(bottom);
    split->addWidget(tokens_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 2);
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Drag to pan, wheel to zoom the steps."), this), 1);
    bar->addWidget(new QLabel(tr("&Show:"), this));
    static_cast<QLabel*>(bar->itemAt(bar->count() - 1)->widget())->setBuddy(phase_filter_);
    bar->addWidget(phase_filter_);
    bar->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);
    connect(export_, &QPushButton::clicked, this, &BreakdownTab::exportPlot);
    connect(phase_filter_, &QComboBox::currentIndexChanged, this, [this] {
        const int v = phase_filter_->currentData().toInt();
        plot_->setPhaseFilter(v < 0 ? std::nullopt
                                    : std::optional<trace::Phase>(static_cast<trace::Phase>(v)));
    });
    connect(tokens_->query(), &BackgroundQuery::busyChanged, this, &RunTab::busyChanged);
    useAnalyzer(new RunAnalyzer(this));
    setRun(OpenRun{});
}

void BreakdownTab::useAnalyzer(RunAnalyzer* analyzer) {
    for (const auto& link : analyzer_links_) disconnect(link);
    analyzer_ = analyzer;
    analyzer_links_ = {
        connect(analyzer_, &RunAnalyzer::busyChanged, this, &RunTab::busyChanged),
        connect(analyzer_, &RunAnalyzer::ready, this, &BreakdownTab::showAnalysis),
        connect(analyzer_, &RunAnalyzer::failed, this, &BreakdownTab::showError),
        connect(analyzer_, &RunAnalyzer::cancelled, this, [this] {
            if (!run_.valid() || analyzer_->run().data != run_.data) return;
            plot_->clear(tr("Cancelled."));
            verdict_->setText(tr("Attribution cancelled. Select the run again to compute it."));
        })};
}

BackgroundQuery* BreakdownTab::query() const {
    return analyzer_->query();
}

void BreakdownTab::setRun(const OpenRun& run) {
    run_ = run;
    tokens_->setRun(run);
    ready_ = false;
    analysis_.reset();
    phases_->setRows({});
    roles_->setBreakdown({});
    rules_->setRows({});
    rule_table_->setVisible(true);
    export_->setEnabled(false);
    analyzer_->setRun(run);  // no new work when the window's analyzer has it already
    no_steps_->setRun(run);
    figures_->setRun(run);
    chart_->setCurrentIndex(StepPatternPanel::wanted(run) ? 1 : 0);
    if (!run.valid()) {
        plot_->clear(tr("Open a run to see where each step's time went."));
        verdict_->setText(tr("No run open."));
        return;
    }
    plot_->clear(tr("Attributing steps…"));
    verdict_->setText(tr("Assessing the run…"));
    if (analyzer_->result()) showAnalysis();
    if (!analyzer_->error().isEmpty()) showError(analyzer_->error());
}

bool BreakdownTab::queryBusy() const {
    return analyzer_->busy() || tokens_->query()->busy();
}

QString BreakdownTab::queryText() const {
    return analyzer_->busy() ? analyzer_->what() : tokens_->query()->what();
}

void BreakdownTab::cancelQuery() {
    tokens_->query()->cancel();
    analyzer_->cancel();  // the views say so on its cancelled()
}

void BreakdownTab::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    plot_->setUnit(unit);
    tokens_->setUnit(unit);
    phases_->setUnit(unit);
    roles_->setTimeUnit(unit);
    figures_->setUnit(unit);
    rules_->setUnit(unit);
    if (analysis_) verdict_->setText(verdictHtml(analysis_->assessment));
}

QString BreakdownTab::verdictText() const {
    return verdict_->text();
}

void BreakdownTab::showError(const QString& error) {
    if (!run_.valid() || analyzer_->run().data != run_.data) return;
    plot_->clear(error);
    verdict_->setText(tr("<span style='color:#d55e00'>Could not attribute the steps: "
                         "%1</span>")
                          .arg(error.toHtmlEscaped()));
}

void BreakdownTab::showAnalysis() {
    // The window's analyzer may report a run this tab does not show (yet).
    if (!run_.valid() || analyzer_->run().data != run_.data || !analyzer_->result()) return;
    analysis_ = analyzer_->result();
    const analysis::RunAnalysis& result = *analysis_;
    std::vector<std::int64_t> floors;
    std::vector<trace::Phase> phases;
    floors.reserve(run_.data->steps.size());
    for (const auto& s : run_.data->steps) {
        floors.push_back(s.floor_ns);
        phases.push_back(s.phase);
    }
    const auto filter = BreakdownPlot::defaultFilter(result.steps, phases);
    {
        const QSignalBlocker block(phase_filter_);
        phase_filter_->setCurrentIndex(phase_filter_->findData(filter ? int(*filter) : -1));
    }
    plot_->setPhaseFilter(filter);
    plot_->setSteps(result.steps, std::move(floors),
                    tr("%1 \u2014 time per step by category").arg(RunTitle::of(run_)),
                    std::move(phases));
    phases_->setRows(result.assessment.phases);
    roles_->setBreakdown(result.roles);
    // No verdict ("none"): no rule was held against a number.
    const bool judged = result.assessment.verdict.primary != "none";
    rules_->setRows(judged ? result.assessment.verdict.rules : std::vector<analysis::RuleResult>{});
    rule_table_->setVisible(judged);
    verdict_->setText(verdictHtml(result.assessment));
    export_->setEnabled(!run_.data->steps.empty());
    ready_ = true;
    emit breakdownReady();
}

QString BreakdownTab::verdictHtml(const analysis::RunAssessment& a) const {
    const QString headline =
        VerdictHtml::headline(a.verdict, run_.valid() && run_.data->info.is_model());
    // No verdict: the headline says why; "0 steps, 0 ms" adds nothing.
    return a.verdict.primary == "none" ? headline : headline + VerdictHtml::summary(a, unit_);
}

void BreakdownTab::exportPlot() {
    if (!ready_) return;
    ExportDialog dialog(QFileInfo(run_.path).completeBaseName() + QStringLiteral("-breakdown"),
                        false, this, run_.path);
    if (dialog.exec() != QDialog::Accepted) return;
    QString error;
    if (!plots::PlotExporter::save(plot_, dialog.path(), dialog.size(), dialog.dpi(), &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace tokenscope::ui
