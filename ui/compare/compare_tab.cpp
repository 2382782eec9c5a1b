#include "compare_tab.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <array>
#include <exception>
#include <optional>
#include <utility>

#include "analysis/compare/stored_diff.h"
#include "iteration_delta_model.h"
#include "kernel_delta_model.h"
#include "metric_delta_model.h"
#include "store/store_error.h"
#include "store/store_reader.h"
#include "ui/heatmap/heatmap_controls.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/plots/plot_exporter.h"
#include "ui/shared/background_query.h"
#include "ui/shared/export_dialog.h"
#include "ui/shared/frozen_column_table.h"
#include "ui/shared/row_table.h"
#include "ui/shared/run_analyzer.h"
#include "ui/shared/run_list_model.h"
#include "ui/shared/run_title.h"

namespace tokenscope::ui {
namespace {

// A function, not a global QString: no static initialisation order to think about.
QString settings_group() {
    return QStringLiteral("compare");
}

// What the analyzer has of A and B: the diff builds no coverage and no heatmap again.
struct Inputs {
    std::shared_ptr<const analysis::RunAnalysis> a, b;
    std::shared_ptr<const analysis::Heatmap> map_a, map_b;  // both, or the diff has none
    QString heatmap_error;                                  // why they are missing
};

// A run whose activities stayed in its file (a large one, trace::RunData::in_file): what
// the diff reads of them, read from the file a stretch at a time.
std::optional<analysis::ActivityFigures> figures_of(const OpenRun& run,
                                                    const trace::StopToken& stop) {
    if (!run.data->in_file) return std::nullopt;
    const store::StoreReader reader(run.path.toStdString(), store::ReaderOptions::pass());
    return analysis::stored_activity_figures(reader, *run.data, {}, stop);
}

// Throws trace::Cancelled once `stop` is requested; the query drops that silently.
CompareTab::Job run_diff(const OpenRun& run_a, const OpenRun& run_b,
                         const analysis::HeatmapSpec& spec, const Inputs& in,
                         const trace::StopToken& stop) {
    CompareTab::Job job;
    const trace::RunData& a = *run_a.data;
    const trace::RunData& b = *run_b.data;
    analysis::DiffOptions options;
    std::optional<analysis::ActivityFigures> figures_a, figures_b;
    try {
        figures_a = figures_of(run_a, stop);
        figures_b = figures_of(run_b, stop);
    } catch (const store::StoreError& e) {
        job.error = QString::fromUtf8(e.what());  // names the file
        return job;
    }
    analysis::DiffInputs given{&in.a->steps, &in.b->steps, in.map_a.get(), in.map_b.get()};
    if (figures_a) given.figures_a = &*figures_a;
    if (figures_b) given.figures_b = &*figures_b;
    job.heatmap_error = in.heatmap_error;
    if (in.map_a && in.map_b) {
        options.heatmap = spec;
        try {
            job.diff = analysis::diff_runs(a, b, options, given, stop);
            return job;
        } catch (const trace::Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            job.heatmap_error = QString::fromUtf8(e.what());
        }
    }
    // The heatmap spec may not fit these runs; the tables are still worth showing.
    try {
        options.heatmap.reset();
        job.diff = analysis::diff_runs(a, b, options, given, stop);
    } catch (const trace::Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        job.error = QString::fromUtf8(e.what());
    }
    return job;
}

}  // namespace

CompareTab::CompareTab(QWidget* parent)
    : RunTab(parent),
      stack_(new QStackedWidget(this)),
      pick_a_(new QComboBox(this)),
      pick_b_(new QComboBox(this)),
      empty_(new QLabel(this)),
      runs_(new QLabel(this)),
      status_(new QLabel(this)),
      swap_(new QPushButton(tr("&Swap A/B"), this)),
      export_(new QPushButton(tr("&Export…"), this)),
      controls_(new HeatmapControls(this)),
      plot_a_(new plots::HeatmapPlot(this)),
      plot_b_(new plots::HeatmapPlot(this)),
      plot_delta_(new plots::HeatmapPlot(this)),
      metrics_(new MetricDeltaModel(this)),
      kernels_(new KernelDeltaModel(this)),
      iterations_(new IterationDeltaModel(this)),
      iteration_text_(new QLabel(this)),
      kernel_proxy_(new QSortFilterProxyModel(this)),
      query_(new BackgroundQuery(this)) {
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setText(
        tr("Pick runs A and B above from the open runs (two runs of one file too), or "
           "right-click a run in the Runs list and choose Set as A or Set as B. Dropping two "
           "files on the window, or one file on this tab, compares them as well.<br><br>A "
           "and B heatmaps on one shared colour scale, the delta heatmap (B \u2212 A), the "
           "metric delta table with significance and a sortable per-kernel delta table will "
           "appear here."));
    for (QComboBox* pick : {pick_a_, pick_b_}) {
        // Long run names must not widen the window: the box elides, its list shows them whole.
        pick->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        pick->setMinimumContentsLength(18);
        pick->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    pick_a_->setObjectName(QStringLiteral("comparePickA"));
    pick_b_->setObjectName(QStringLiteral("comparePickB"));
    pick_a_->setToolTip(tr("Run A, the baseline"));
    pick_b_->setToolTip(tr("Run B, compared with A"));
    runs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Two run names and paths on one line made the window wider than the screen.
    runs_->setWordWrap(true);
    status_->setWordWrap(true);
    iteration_text_->setWordWrap(true);
    iteration_text_->setTextFormat(Qt::PlainText);
    iteration_text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    swap_->setToolTip(tr("Exchange runs A and B"));
    auto* page = new QWidget(this);
    // The picks stay above both the comparison and the empty page.
    auto* picks = new QHBoxLayout;
    auto* label_a = new QLabel(tr("&A:"), this);
    label_a->setBuddy(pick_a_);
    auto* label_b = new QLabel(tr("&B:"), this);
    label_b->setBuddy(pick_b_);
    picks->addWidget(label_a);
    picks->addWidget(pick_a_, 1);
    picks->addWidget(label_b);
    picks->addWidget(pick_b_, 1);
    picks->addWidget(swap_);
    picks->addWidget(export_);
    auto* bar = new QHBoxLayout;
    bar->addWidget(runs_, 1);
    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(buildPlots());
    split->addWidget(buildTables());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(controls_);
    layout->addWidget(status_);
    layout->addWidget(iteration_text_);
    layout->addWidget(split, 1);
    stack_->addWidget(empty_);
    stack_->addWidget(page);
    auto* outer = new QVBoxLayout(this);
    outer->addLayout(picks);
    outer->addWidget(stack_, 1);
    connect(swap_, &QPushButton::clicked, this, &CompareTab::swap);
    connect(pick_a_, &QComboBox::activated, this, &CompareTab::picked);
    connect(pick_b_, &QComboBox::activated, this, &CompareTab::picked);
    fillPicks();
    connect(export_, &QPushButton::clicked, this, &CompareTab::exportPlot);
    connect(controls_, &HeatmapControls::specChanged, this, [this] {
        controls_->saveChoice();
        recompute();
    });
    connect(query_, &BackgroundQuery::busyChanged, this, &CompareTab::updateBusy);
    useAnalyzer(new RunAnalyzer(this));
}

CompareTab::~CompareTab() {
    if (analyzer_) analyzer_->release(this);
}

RunAnalyzer* CompareTab::analyzer() const {
    return analyzer_;
}

void CompareTab::useAnalyzer(RunAnalyzer* analyzer) {
    if (analyzer_) {
        disconnect(analyzer_link_);
        analyzer_->release(this);
    }
    analyzer_ = analyzer;
    analyzer_link_ = connect(analyzer_, &RunAnalyzer::updated, this, &CompareTab::tryDiff);
    recompute();
}

QWidget* CompareTab::buildPlots() {
    auto* plots = new QSplitter(Qt::Horizontal, this);
    for (plots::HeatmapPlot* p : {plot_a_, plot_b_, plot_delta_}) {
        p->setMinimumSize(240, 200);
        plots->addWidget(p);
    }
    // One legend note is enough for three plots; the delta's explains its colours.
    plot_a_->setLegendNoteVisible(false);
    plot_b_->setLegendNoteVisible(false);
    return plots;
}

QWidget* CompareTab::buildTables() {
    kernel_proxy_->setSourceModel(kernels_);
    kernel_proxy_->setSortRole(KernelDeltaModel::SortRole);
    kernel_proxy_->setFilterKeyColumn(KernelDeltaModel::Name);
    kernel_proxy_->setFilterRole(KernelDeltaModel::FullNameRole);  // not the short name
    kernel_proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    // Real kernel names are long: the name stays in place while the numbers scroll.
    kernel_view_ = new FrozenColumnTable(kernel_proxy_, this);
    kernel_view_->setSortingEnabled(true);
    kernel_view_->sortByColumn(KernelDeltaModel::TotalDelta, Qt::DescendingOrder);
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter kernels by name"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, kernel_proxy_,
            &QSortFilterProxyModel::setFilterFixedString);
    auto* kernels = new QWidget(this);
    auto* kl = new QVBoxLayout(kernels);
    kl->setContentsMargins(0, 0, 0, 0);
    kl->addWidget(filter_);
    kl->addWidget(kernel_view_, 1);
    // The metrics, the kernels and the engine iterations as tabs: each table gets the
    // whole width, so at a laptop's width no number is cut or scrolled away.
    iteration_pane_ = make_row_table(iterations_, this);
    iteration_pane_->setToolTip(
        tr("Engine iterations aligned by phase and index; the P50 delta split into GPU idle "
           "and GPU time per kernel role (per-iteration means; concurrent time shared)"));
    tables_ = new QTabWidget(this);
    tables_->setObjectName(QStringLiteral("compareTables"));
    tables_->addTab(make_row_table(metrics_, this), tr("Metrics"));
    tables_->addTab(kernels, tr("Kernels"));
    tables_->addTab(iteration_pane_, tr("Engine iterations"));
    return tables_;
}

void CompareTab::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    for (plots::HeatmapPlot* p : {plot_a_, plot_b_, plot_delta_}) p->setUnit(unit);
    metrics_->setUnit(unit);
    kernels_->setUnit(unit);
    iterations_->setUnit(unit);
}

void CompareTab::compare(const OpenRun& a, const OpenRun& b) {
    a_ = a;
    b_ = b;
    if (a_.valid() && b_.valid())
        controls_->fitToRuns(*a_.data, *b_.data, settings_group());
    else if (a_.valid())
        controls_->fitToRun(*a_.data, settings_group());
    recompute();
}

void CompareTab::swap() {
    std::swap(a_, b_);
    recompute();
}

void CompareTab::setRunList(RunListModel* runs) {
    if (run_list_) disconnect(run_list_, nullptr, this, nullptr);
    run_list_ = runs;
    if (runs != nullptr) {
        connect(runs, &QAbstractItemModel::rowsInserted, this, &CompareTab::fillPicks);
        connect(runs, &QAbstractItemModel::rowsRemoved, this, &CompareTab::fillPicks);
        connect(runs, &QAbstractItemModel::modelReset, this, &CompareTab::fillPicks);
    }
    fillPicks();
}

// One entry per open run: its name and file, so two runs of one file read apart.
void CompareTab::fillPicks() {
    for (QComboBox* pick : {pick_a_, pick_b_}) {
        const QSignalBlocker block(pick);
        pick->clear();
        pick->addItem(tr("(choose a run)"), -1);
        const int rows = run_list_ ? run_list_->rowCount() : 0;
        for (int row = 0; row < rows; ++row) {
            const OpenRun& run = run_list_->run(row);
            pick->addItem(tr("%1 \u2014 %2").arg(RunTitle::of(run), QFileInfo(run.path).fileName()),
                          row);
            pick->setItemData(pick->count() - 1, run.path, Qt::ToolTipRole);
        }
        pick->setEnabled(rows > 0);
    }
    showPicks();
}

// The boxes show A and B, wherever they were chosen.
void CompareTab::showPicks() {
    auto show = [this](QComboBox* pick, const OpenRun& run) {
        const QSignalBlocker block(pick);
        int index = 0;
        for (int i = 1; run.valid() && run_list_ && i < pick->count(); ++i) {
            const int row = pick->itemData(i).toInt();
            if (row < run_list_->rowCount() && run_list_->run(row).data == run.data) index = i;
        }
        pick->setCurrentIndex(index);
    };
    show(pick_a_, a_);
    show(pick_b_, b_);
}

void CompareTab::picked() {
    if (!run_list_) return;
    auto chosen = [this](const QComboBox* pick) {
        const int row = pick->currentData().toInt();
        return row >= 0 && row < run_list_->rowCount() ? run_list_->run(row) : OpenRun{};
    };
    compare(chosen(pick_a_), chosen(pick_b_));
}

QString CompareTab::statusText() const {
    return status_->text();
}

QString CompareTab::iterationText() const {
    return iteration_text_->text();
}

bool CompareTab::showsIterations() const {
    return !iteration_text_->isHidden() && tables_->isTabVisible(tables_->indexOf(iteration_pane_));
}

bool CompareTab::showsEmptyState() const {
    return stack_->currentWidget() == empty_;
}

// Where A or B came from; the boxes above name the runs.
QString CompareTab::label(const OpenRun& run) const {
    return QStringLiteral("<span style='color:gray'>%1</span>").arg(run.path.toHtmlEscaped());
}

void CompareTab::recompute() {
    diff_.reset();
    metrics_->setMetrics({});
    kernels_->setKernels({});
    showIterations({});
    export_->setEnabled(false);
    swap_->setEnabled(a_.valid() || b_.valid());
    showPicks();
    if (!a_.valid() || !b_.valid()) {
        waiting_ = false;
        query_->clear();
        analyzer_->release(this);
        stack_->setCurrentWidget(empty_);
        updateBusy();
        return;
    }
    stack_->setCurrentWidget(stack_->widget(1));
    runs_->setText(tr("<b>A:</b> %1 &nbsp; <b>B:</b> %2").arg(label(a_), label(b_)));
    const QString what = tr("Comparing A and B…");
    status_->setText(what);
    for (plots::HeatmapPlot* p : {plot_a_, plot_b_, plot_delta_})
        p->setHeatmap(plots::HeatmapPlotData{});
    waiting_ = true;  // busy throughout: no idle edge between the diff stopped and the next
    query_->clear();  // the diff of the runs before
    spec_ = controls_->spec();
    // What the analyzer has (the current run's analysis, the Heatmap tab's heatmap under
    // the same spec) is not computed again; what nobody claims any more stops.
    analyzer_->claim(this, RunAnalyzer::Claim{{a_, b_}, {{a_, spec_}, {b_, spec_}}});
    tryDiff();
}

void CompareTab::tryDiff() {
    if (!waiting_ || !a_.valid() || !b_.valid()) return updateBusy();
    const std::array<const trace::RunData*, 2> runs = {a_.data.get(), b_.data.get()};
    for (const trace::RunData* r : runs)
        if (analyzer_->pending(r) || analyzer_->pending(r, spec_)) return updateBusy();
    waiting_ = false;
    Inputs in{analyzer_->analysis(runs[0]),
              analyzer_->analysis(runs[1]),
              analyzer_->heatmap(runs[0], spec_),
              analyzer_->heatmap(runs[1], spec_),
              {}};
    for (const trace::RunData* r : runs)
        if (const QString error = analyzer_->error(r); !error.isEmpty()) {
            status_->setText(tr("<span style='color:#d55e00'>Could not compare: %1</span>")
                                 .arg(error.toHtmlEscaped()));
            return updateBusy();
        }
    for (const trace::RunData* r : runs)
        if (in.heatmap_error.isEmpty()) in.heatmap_error = analyzer_->error(r, spec_);
    // Neither ready nor failed: cancelled (here or in another view sharing it).
    if (!in.a || !in.b || ((!in.map_a || !in.map_b) && in.heatmap_error.isEmpty())) {
        showCancelled();
        return updateBusy();
    }
    // Copies: their data is shared, so both runs stay alive while the job reads them.
    query_->run(
        tr("Comparing A and B…"),
        [a = a_, b = b_, spec = spec_, in](const trace::StopToken& stop) {
            return run_diff(a, b, spec, in, stop);
        },
        [this](const Job& job) { show(job); });
    updateBusy();
}

bool CompareTab::queryBusy() const {
    return waiting_ || query_->busy();
}

QString CompareTab::queryText() const {
    return queryBusy() ? tr("Comparing A and B…") : QString();
}

void CompareTab::updateBusy() {
    const bool busy = queryBusy();
    if (busy == shown_busy_) return;
    shown_busy_ = busy;
    emit busyChanged(busy, queryText());
}

void CompareTab::cancelQuery() {
    const bool diffing = query_->cancel();
    const bool analysing = analyzer_->cancel(this);  // stops A's and B's analyses too
    const bool waited = std::exchange(waiting_, false);
    if (!diffing && !analysing && !waited) return;
    showCancelled();
    updateBusy();
}

void CompareTab::showCancelled() {
    status_->setText(
        tr("Comparison cancelled. Swap, change a setting or drop the runs again "
           "to compare them."));
}

void CompareTab::show(const Job& job) {
    if (!a_.valid() || !b_.valid()) return;
    if (!job.diff) {
        status_->setText(tr("<span style='color:#d55e00'>Could not compare: %1</span>")
                             .arg(job.error.toHtmlEscaped()));
        return;
    }
    diff_ = job.diff;
    metrics_->setMetrics(diff_->metrics);
    kernels_->setKernels(diff_->kernels);
    showIterations(diff_->iterations);
    showHeatmaps(*diff_);
    QString text = tr("%1 steps aligned by (request, token); %2 only in A, %3 only in B; %4 "
                      "kernels by name.")
                       .arg(diff_->steps.size())
                       .arg(diff_->steps_only_a)
                       .arg(diff_->steps_only_b)
                       .arg(diff_->kernels.size());
    if (!job.heatmap_error.isEmpty())
        text += tr(" <span style='color:#d55e00'>No heatmaps: %1</span>")
                    .arg(job.heatmap_error.toHtmlEscaped());
    status_->setText(text);
    emit diffReady();
}

void CompareTab::showIterations(const analysis::IterationDiff& iterations) {
    iterations_->setIterations(iterations);
    QStringList lines;
    for (const auto& d : iterations.phases) lines << QString::fromStdString(d.sentence);
    iteration_text_->setText(lines.join(QLatin1Char('\n')));
    iteration_text_->setHidden(iterations.empty());
    tables_->setTabVisible(tables_->indexOf(iteration_pane_), !iterations.empty());
}

void CompareTab::showHeatmaps(const analysis::RunDiff& diff) {
    if (!diff.heatmap_a || !diff.heatmap_b || !diff.heatmap) return;
    const auto& ha = *diff.heatmap_a;
    const auto& hb = *diff.heatmap_b;
    const QString metric = plots::HeatmapPlotData::metricLabel(ha.spec.metric);
    auto side = [&](const analysis::Heatmap& map, const OpenRun& run, const QString& which) {
        plots::HeatmapPlotData d =
            plots::HeatmapPlotData::fromHeatmap(map, run.index->min_time(), run.data.get());
        // The boxes above name the runs in full; a narrow plot elides its title.
        d.title = QStringLiteral("%1: %2").arg(which, RunTitle::of(run));
        return d;
    };
    plots::HeatmapPlotData data_a = side(ha, a_, QStringLiteral("A"));
    plots::HeatmapPlotData data_b = side(hb, b_, QStringLiteral("B"));
    // The runs differ at their ends ("... on H100-SXM5" / "... on H200"): cut on the left.
    plot_a_->setTitleElide(Qt::ElideLeft);
    plot_b_->setTitleElide(Qt::ElideLeft);
    plot_a_->setHeatmap(data_a);
    plot_b_->setHeatmap(data_b);
    // One scale for A and B, so equal colours mean equal latency.
    plot_a_->setColorRange(diff.heatmap->shared_min, diff.heatmap->shared_max);
    plot_b_->setColorRange(diff.heatmap->shared_min, diff.heatmap->shared_max);
    const bool a_longer = ha.columns.size() >= hb.columns.size();
    plots::HeatmapPlotData delta =
        plots::HeatmapPlotData::fromDiff(*diff.heatmap, a_longer ? ha.columns : hb.columns,
                                         (a_longer ? a_ : b_).index->min_time(), metric);
    // Its windows where their steps start, as the side whose windows it shows.
    delta.column_starts = (a_longer ? data_a : data_b).column_starts;
    delta.column_starts.resize(std::min(delta.column_starts.size(), delta.columns.size()));
    delta.title = tr("\u0394 B \u2212 A");
    plot_delta_->setEmptyText(tr("No cells to compare."));
    plot_delta_->setHeatmap(std::move(delta));
    export_->setEnabled(true);
}

void CompareTab::exportPlot() {
    if (!diff_) return;
    ExportDialog dialog(QFileInfo(b_.path).completeBaseName() + QStringLiteral("-vs-") +
                            QFileInfo(a_.path).completeBaseName() + QStringLiteral("-delta"),
                        false, this, b_.path);
    if (dialog.exec() != QDialog::Accepted) return;
    QString error;
    if (!plots::PlotExporter::save(plot_delta_, dialog.path(), dialog.size(), dialog.dpi(), &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

}  // namespace tokenscope::ui
