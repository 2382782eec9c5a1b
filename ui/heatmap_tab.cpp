#include "heatmap_tab.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include <exception>

#include "analysis/slow_tokens.h"
#include "background_query.h"
#include "export_dialog.h"
#include "heatmap_controls.h"
#include "run_title.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/plots/plot_exporter.h"

namespace tokenscope::ui {
namespace {

const QString kSettingsGroup = QStringLiteral("heatmap");

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
    connect(query_, &BackgroundQuery::busyChanged, this, &RunTab::busyChanged);
    setRun(OpenRun{});
}

void HeatmapTab::setRun(const OpenRun& run) {
    run_ = run;
    if (run_.valid()) controls_->fitToRun(*run_.data, kSettingsGroup);
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
    return query_->busy();
}

bool HeatmapTab::queryBusy() const {
    return query_->busy();
}

QString HeatmapTab::queryText() const {
    return query_->what();
}

void HeatmapTab::cancelQuery() {
    if (!query_->cancel()) return;
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
        query_->clear();
        plot_->setEmptyText(tr("Open a run to see its P95 heatmap."));
        plot_->setHeatmap(plots::HeatmapPlotData{});
        status_->setText(tr("No run open."));
        return;
    }
    const analysis::HeatmapSpec spec = controls_->spec();
    const QString what = tr("Computing the heatmap…");
    status_->setText(what);
    auto run_data = run_.data;  // shared: stays alive while the job reads it
    // A newer query supersedes and stops this one; its result is then dropped unseen.
    query_->run(
        what,
        [run_data, spec](const trace::StopToken& stop) -> Job {
            try {
                return Job{analysis::compute_heatmap(*run_data, spec, stop), {}};
            } catch (const trace::Cancelled&) {
                throw;  // not a failure: the query drops it silently
            } catch (const std::exception& e) {
                return Job{std::nullopt, QString::fromUtf8(e.what())};
            }
        },
        [this](const Job& job) { showJob(job); });
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
        plots::HeatmapPlotData::fromHeatmap(*map_, run_.index->min_time());
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
    ExportDialog dialog(base, true, this);
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
