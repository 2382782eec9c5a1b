#include "attribution_panel.h"

#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "step_pattern_panel.h"
#include "ui/plots/category_colors.h"
#include "ui/shared/background_query.h"
#include "ui/shared/row_table.h"
#include "ui/shared/run_analyzer.h"
#include "verdict_html.h"

namespace tokenscope::ui {
namespace {

QLabel* make_label(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    return label;
}

QGroupBox* group(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(content);
    return box;
}

}  // namespace

AttributionPanel::AttributionPanel(QWidget* parent)
    : QWidget(parent),
      verdict_(make_label(this)),
      range_(make_label(this)),
      table_(new QTableWidget(static_cast<int>(analysis::kCategoryCount) + 1, 4, this)),
      details_(make_label(this)),
      no_steps_(new StepPatternPanel(this)),
      no_steps_box_(group(tr("Iterations"), no_steps_, this)),
      range_query_(new BackgroundQuery(this)) {
    table_->setHorizontalHeaderLabels({tr("Category"), tr("Time"), tr("Share"), tr("Hidden")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    fit_columns(table_);  // as narrow as the dock: category names elide, times stay whole
    auto* selection = new QWidget(this);
    auto* sel_layout = new QVBoxLayout(selection);
    sel_layout->setContentsMargins(0, 0, 0, 0);
    sel_layout->addWidget(range_);
    sel_layout->addWidget(table_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(group(tr("Verdict"), verdict_, this));
    no_steps_->setCompact(true);  // the Breakdown tab has the whole text
    layout->addWidget(no_steps_box_);
    layout->addWidget(group(tr("Selection"), selection, this));
    layout->addWidget(group(tr("Details"), details_, this));
    layout->addStretch(1);
    useAnalyzer(new RunAnalyzer(this));
    setRun(OpenRun{});
}

void AttributionPanel::useAnalyzer(RunAnalyzer* analyzer) {
    for (const auto& link : analyzer_links_) disconnect(link);
    analyzer_ = analyzer;
    auto live = [this] { return run_.valid() && analyzer_->run().data == run_.data; };
    analyzer_links_ = {
        connect(analyzer_, &RunAnalyzer::ready, this,
                [this, live] {
                    if (!live() || !analyzer_->result()) return;
                    analysis_ = analyzer_->result();
                    showVerdictResult();
                    emit verdictReady();
                }),
        connect(analyzer_, &RunAnalyzer::failed, this,
                [this, live](const QString& error) {
                    if (!live()) return;
                    verdict_->setText(tr("<span style='color:#d55e00'>Could not assess the run: "
                                         "%1</span>")
                                          .arg(error.toHtmlEscaped()));
                }),
        connect(analyzer_, &RunAnalyzer::cancelled, this, [this, live] {
            if (live()) verdict_->setText(tr("Assessment cancelled."));
        })};
}

void AttributionPanel::setRun(const OpenRun& run) {
    run_ = run;
    no_steps_->setRun(run);
    no_steps_box_->setVisible(StepPatternPanel::wanted(run));
    showVerdict();
    clearSelection();
    details_->setText(tr("Hover or click an activity in the timeline."));
}

void AttributionPanel::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    if (has_result_) showResult();
    if (run_.valid() && analysis_) showVerdictResult();
}

void AttributionPanel::showVerdict() {
    analysis_.reset();
    analyzer_->setRun(run_);  // no new work when the window's analyzer has it already
    if (!run_.valid()) {
        verdict_->setText(tr("No run open."));
        return;
    }
    verdict_->setText(tr("Assessing the run…"));
    if (analyzer_->result()) {
        analysis_ = analyzer_->result();
        showVerdictResult();
        emit verdictReady();
    }
}

QString AttributionPanel::verdictText() const {
    return verdict_->text();
}

// docs/attribution.md, Verdicts: the verdict with every rule's number next to its threshold.
void AttributionPanel::showVerdictResult() {
    const analysis::Verdict& v = analysis_->assessment.verdict;
    // No verdict ("none"): the headline says why, and no rule was held against a number.
    verdict_->setText(VerdictHtml::headline(v, run_.data->info.is_model()) +
                      (v.primary == "none" ? QString() : VerdictHtml::ruleTable(v, unit_)));
}

void AttributionPanel::selectRange(qint64 t0, qint64 t1) {
    if (!run_.valid() || t1 <= t0) return clearSelection();
    range_->setText(tr("%1 … %2 (%3), computing…")
                        .arg(plots::TimeFormat::duration(t0 - run_.index->min_time(), unit_),
                             plots::TimeFormat::duration(t1 - run_.index->min_time(), unit_),
                             plots::TimeFormat::duration(t1 - t0, unit_)));
    has_result_ = false;
    auto run_data = run_.data;  // shared: the run stays alive while the job reads it
    // A newer selection supersedes and stops this one.
    range_query_->run(
        tr("Attributing the selection…"),
        [run_data, t0, t1](const trace::StopToken& stop) {
            return analysis::attribute_range(*run_data, t0, t1, {}, stop);
        },
        [this](const analysis::StepAttribution& a) {
            result_ = a;
            has_result_ = true;
            showResult();
            emit attributionReady();
        });
}

void AttributionPanel::clearSelection() {
    range_query_->clear();  // stops the attribution of the selection before
    has_result_ = false;
    range_->setText(
        tr("Select a range in the timeline (shift+drag or right-drag), or click a step."));
    table_->setVisible(false);
}

void AttributionPanel::showDetails(const QString& html) {
    details_->setText(html);
}

void AttributionPanel::showResult() {
    const std::int64_t total = result_.end_ns - result_.start_ns;
    const std::int64_t origin = run_.valid() ? run_.index->min_time() : 0;
    range_->setText(tr("%1 … %2 (%3)")
                        .arg(plots::TimeFormat::duration(result_.start_ns - origin, unit_),
                             plots::TimeFormat::duration(result_.end_ns - origin, unit_),
                             plots::TimeFormat::duration(total, unit_)));
    std::int64_t hidden_total = 0;
    for (std::size_t c = 0; c < analysis::kCategoryCount; ++c) {
        const auto cat = analysis::kCategories[c];
        const int row = static_cast<int>(c);
        auto* name = new QTableWidgetItem(plots::CategoryColors::label(cat));
        name->setData(Qt::DecorationRole, plots::CategoryColors::color(cat));
        table_->setItem(row, 0, name);
        table_->setItem(
            row, 1, new QTableWidgetItem(plots::TimeFormat::duration(result_.assigned[c], unit_)));
        const double share = total > 0 ? static_cast<double>(result_.assigned[c]) / total : 0.0;
        table_->setItem(row, 2, new QTableWidgetItem(plots::TimeFormat::share(share)));
        table_->setItem(
            row, 3, new QTableWidgetItem(plots::TimeFormat::duration(result_.hidden[c], unit_)));
        hidden_total += result_.hidden[c];
    }
    const int last = static_cast<int>(analysis::kCategoryCount);
    table_->setItem(last, 0, new QTableWidgetItem(tr("Total")));
    table_->setItem(last, 1, new QTableWidgetItem(plots::TimeFormat::duration(total, unit_)));
    table_->setItem(last, 2, new QTableWidgetItem(plots::TimeFormat::share(total > 0 ? 1.0 : 0.0)));
    table_->setItem(last, 3,
                    new QTableWidgetItem(plots::TimeFormat::duration(hidden_total, unit_)));
    table_->setVisible(true);
}

}  // namespace tokenscope::ui
