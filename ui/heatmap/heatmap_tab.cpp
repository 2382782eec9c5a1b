#include "heatmap_tab.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

#include "analysis/join/slow_tokens.h"
#include "heatmap_controls.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/plots/plot_exporter.h"
#include "ui/shared/background_query.h"
#include "ui/shared/export_dialog.h"
#include "ui/shared/run_analyzer.h"
#include "ui/shared/run_title.h"

namespace tokenscope::ui {
namespace {

// A function, not a global QString: no static initialisation order to think about.
QString settings_group() {
    return QStringLiteral("heatmap");
}

QString rows_label(analysis::HeatmapRows rows) {
    switch (rows) {
        case analysis::HeatmapRows::Kernel:
            return QStringLiteral("kernel");
        case analysis::HeatmapRows::Request:
            return QStringLiteral("request");
        case analysis::HeatmapRows::Phase:
            return QStringLiteral("phase");
        case analysis::HeatmapRows::Position:
            return QStringLiteral("token position");
        case analysis::HeatmapRows::Lane:
            return QStringLiteral("lane");
        case analysis::HeatmapRows::Concurrency:
            return QStringLiteral("requests in flight");
        case analysis::HeatmapRows::Batch:
            return QStringLiteral("batch");
        case analysis::HeatmapRows::Rank:
            return QStringLiteral("rank");
        case analysis::HeatmapRows::Role:
            return QStringLiteral("kernel role");
    }
    return {};
}

}  // namespace

HeatmapTab::HeatmapTab(QWidget* parent)
    : RunTab(parent),
      controls_(new HeatmapControls(this)),
      export_(new QPushButton(tr("&Export…"), this)),
      log_scale_(new QCheckBox(tr("&Log colours"), this)),
      status_(new QLabel(this)),
      plot_(new plots::HeatmapPlot(this)),
      query_(new BackgroundQuery(this)) {
    export_->setToolTip(tr("Save the heatmap as PNG, SVG or PDF, or the matrix as CSV"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);  // a long status must not widen the window
    // The choices get a row of their own, so the tab fits narrow windows.
    auto* bar = new QHBoxLayout;
    bar->addWidget(status_, 1);
    bar->addWidget(log_scale_);
    bar->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(controls_);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    connect(controls_, &HeatmapControls::specChanged, this, [this] {
        controls_->saveChoice();
        recompute();
    });
    connect(export_, &QPushButton::clicked, this, &HeatmapTab::exportPlot);
    // Off by default: a linear scale reads directly; log helps when a prefill
    // row dwarfs the decode steps.
    log_scale_->setToolTip(tr("Logarithmic colour scale"));
    log_scale_->setChecked(QSettings().value(QStringLiteral("heatmap/log"), false).toBool());
    plot_->setLogScale(log_scale_->isChecked());
    connect(log_scale_, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("heatmap/log"), on);
        plot_->setLogScale(on);
    });
    connect(plot_, &plots::HeatmapPlot::cellActivated, this, &HeatmapTab::cellActivated);
    connect(plot_, &plots::HeatmapPlot::cellPicked, this, &HeatmapTab::pickCell);
    useAnalyzer(new RunAnalyzer(this));
}

HeatmapTab::~HeatmapTab() {
    if (analyzer_) analyzer_->release(this);
}

RunAnalyzer* HeatmapTab::analyzer() const {
    return analyzer_;
}

void HeatmapTab::useAnalyzer(RunAnalyzer* analyzer) {
    if (analyzer_) {
        disconnect(analyzer_link_);
        analyzer_->release(this);
    }
    analyzer_ = analyzer;
    analyzer_link_ = connect(analyzer_, &RunAnalyzer::updated, this, &HeatmapTab::check);
    setRun(run_);
}

void HeatmapTab::setRun(const OpenRun& run) {
    run_ = run;
    if (run_.valid()) controls_->fitToRun(*run_.data, settings_group());
    recompute();
}

void HeatmapTab::setUnit(plots::TimeUnit unit) {
    unit_ = unit;
    plot_->setUnit(unit);
}

void HeatmapTab::pickCell(int row, int column) {
    if (!map_ || !run_.valid() || !run_.index || row < 0 || column < 0) return;
    if (static_cast<std::size_t>(row) >= map_->row_count() ||
        static_cast<std::size_t>(column) >= map_->column_count())
        return;
    const auto request =
        analysis::request_of_row_label(map_->row_labels[static_cast<std::size_t>(row)]);
    if (map_->spec.rows != analysis::HeatmapRows::Request || !request) return;
    const auto& w = map_->columns[static_cast<std::size_t>(column)];
    const int step = analysis::slowest_token_in(*run_.data, run_.index->requests().itls(), *request,
                                                w.start_ns, w.end_ns);
    if (step >= 0) emit tokenActivated(step);
}

QString HeatmapTab::statusText() const {
    return status_->text();
}

bool HeatmapTab::computing() const {
    return run_.valid() && analyzer_->pending(run_.data.get(), spec_);
}

bool HeatmapTab::queryBusy() const {
    return computing();
}

QString HeatmapTab::queryText() const {
    return computing() ? tr("Computing the heatmap…") : QString();
}

void HeatmapTab::updateBusy() {
    const bool busy = computing();
    if (busy == shown_busy_) return;
    shown_busy_ = busy;
    emit busyChanged(busy, queryText());
}

// check() says so, on the analyzer's updated() (also when another view cancels the
// heatmap this one shares).
void HeatmapTab::cancelQuery() {
    analyzer_->cancel(this);
}

void HeatmapTab::check() {
    if (!run_.valid() || shown_) return updateBusy();
    const trace::RunData* run = run_.data.get();
    if (const auto map = analyzer_->heatmap(run, spec_)) {
        shown_ = true;
        showJob(Job{*map, {}});
    } else if (const QString error = analyzer_->error(run, spec_); !error.isEmpty()) {
        shown_ = true;
        showJob(Job{std::nullopt, error});
    } else if (analyzer_->stopped(run, spec_)) {
        showCancelled();  // not for good: another view's claim may restart it
    }
    updateBusy();
}

void HeatmapTab::showCancelled() {
    status_->setText(
        tr("Heatmap cancelled. Change a setting or select the run again to "
           "compute it."));
    plot_->setEmptyText(tr("Cancelled."));
    plot_->setHeatmap(plots::HeatmapPlotData{});
}

QString HeatmapTab::title(const analysis::HeatmapSpec& spec) const {
    return tr("%1 \u2014 P95 %2 by %3")
        .arg(RunTitle::of(run_), plots::HeatmapPlotData::metricLabel(spec.metric),
             rows_label(spec.rows));
}

void HeatmapTab::recompute() {
    map_.reset();
    export_->setEnabled(false);
    if (!run_.valid()) {
        analyzer_->release(this);  // stops the heatmap of the run shown before
        updateBusy();
        plot_->setEmptyText(tr("Open a run to see its P95 heatmap."));
        plot_->setHeatmap(plots::HeatmapPlotData{});
        status_->setText(tr("No run open."));
        return;
    }
    spec_ = controls_->spec();
    shown_ = false;
    status_->setText(tr("Computing the heatmap…"));
    // A heatmap no view claims any more is stopped and dropped unseen; one the analyzer
    // has (or computes for another view) is not computed again.
    analyzer_->claim(this, RunAnalyzer::Claim{{}, {{run_, spec_}}}, query_);
    check();
}

void HeatmapTab::showJob(const Job& job) {
    if (!run_.valid()) return;
    if (!job.map) {
        status_->setText(
            tr("<span style='color:#d55e00'>%1</span>").arg(job.error.toHtmlEscaped()));
        plot_->setEmptyText(job.error);
        plot_->setHeatmap(plots::HeatmapPlotData{});
        emit heatmapFailed(job.error);
        return;
    }
    map_ = job.map;
    plots::HeatmapPlotData plot_data =
        plots::HeatmapPlotData::fromHeatmap(*map_, run_.index->min_time(), run_.data.get());
    plot_data.title = title(map_->spec);
    std::int64_t samples = 0;
    for (const auto& cell : map_->cells) samples += cell.count;
    std::size_t flagged = 0;
    for (const auto& f : map_->row_flag) flagged += f.has_value() ? 1 : 0;
    status_->setText(tr("%1 rows x %2 windows, %3 samples, %4 row(s) flagged for recalibration. "
                        "Click a cell to show its window in the timeline.")
                         .arg(map_->row_count())
                         .arg(map_->column_count())
                         .arg(samples)
                         .arg(flagged));
    plot_->setEmptyText(tr("No samples for this metric in this run."));
    plot_->setHeatmap(std::move(plot_data));
    export_->setEnabled(true);
    emit heatmapReady();
}

void HeatmapTab::exportPlot() {
    if (!map_) return;
    const QString base = QFileInfo(run_.path).completeBaseName() + QStringLiteral("-heatmap");
    ExportDialog dialog(base, true, this, run_.path);
    if (dialog.exec() != QDialog::Accepted) return;
    exportTo(dialog.path(), dialog.size(), dialog.dpi());
}

bool HeatmapTab::exportTo(const QString& path, QSize size, int dpi, QString* error) {
    QString why;
    bool ok = false;
    if (!map_)
        why = tr("%1: no heatmap to export").arg(path);
    else if (plots::PlotExporter::formatOf(path) == plots::PlotExporter::Format::Csv)
        ok = plots::PlotExporter::saveCsv(*map_, path, &why);
    else
        ok = plots::PlotExporter::save(plot_, path, size, dpi, &why);
    status_->setText(
        ok ? tr("Exported %1").arg(path)
           : tr("<span style='color:#d55e00'>Export failed: %1</span>").arg(why.toHtmlEscaped()));
    if (error != nullptr) *error = why;
    return ok;
}

}  // namespace tokenscope::ui
