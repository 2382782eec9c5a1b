#include "fleet_tab.h"

#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <ctime>
#include <exception>
#include <fstream>
#include <sstream>

#include "fleet/alert_rules.h"
#include "fleet/fleet_source.h"
#include "fleet_compare_view.h"
#include "prometheus_dialog.h"
#include "ui/plots/fleet_plot_data.h"
#include "ui/plots/heatmap_plot.h"
#include "ui/plots/plot_exporter.h"
#include "ui/shared/background_query.h"

namespace tokenscope::ui {
namespace {

constexpr QSize kImageSize{1600, 900};

QPushButton* button(const QString& text, const char* name, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QLatin1String(name));
    return b;
}

QString window_cell(const fleet::FleetMatrix& m, std::optional<std::size_t> column) {
    return column ? plots::FleetPlotData::windowText(m, *column) : QStringLiteral("\u2014");
}

}  // namespace

FleetTab::FleetTab(QWidget* parent)
    : QWidget(parent),
      query_(new BackgroundQuery(this)),
      query_button_(button(tr("Open Prometheus…"), "queryButton", this)),
      cancel_(button(tr("Cancel"), "cancelButton", this)),
      export_image_(button(tr("Export Image…"), "exportImageButton", this)),
      export_rules_(button(tr("Export Alert Rules…"), "exportRulesButton", this)),
      save_answer_(button(tr("Save Answer…"), "saveAnswerButton", this)),
      status_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      plot_(new plots::HeatmapPlot(this)),
      calibration_(new QTableWidget(this)),
      compare_(new FleetCompareView(this)),
      poll_(new QTimer(this)),
      received_(std::make_shared<std::atomic<std::int64_t>>(0)) {
    setObjectName(QStringLiteral("fleetTab"));
    status_->setObjectName(QStringLiteral("fleetStatus"));
    progress_->setObjectName(QStringLiteral("fleetProgress"));
    plot_->setObjectName(QStringLiteral("fleetHeatmap"));
    // QCustomPlot's minimum is its title's width, and the title names the source.
    plot_->setMinimumSize(400, 240);
    calibration_->setObjectName(QStringLiteral("calibrationTable"));
    buildLayout();
    plot_->setEmptyText(tr("File > Open Prometheus… reads the fleet's latency histograms"));
    plot_->setCellToolTipFunction([this](std::size_t row, std::size_t column) {
        return matrix_ ? plots::FleetPlotData::cellToolTip(*matrix_, row, column) : QString();
    });
    poll_->setInterval(100);
    connect(poll_, &QTimer::timeout, this, &FleetTab::pollProgress);
    connect(query_button_, &QPushButton::clicked, this, &FleetTab::openDialog);
    connect(cancel_, &QPushButton::clicked, this, &FleetTab::cancelQuery);
    connect(export_image_, &QPushButton::clicked, this, [this] {
        chooseExport(tr("Export Image"), tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"),
                     &FleetTab::exportImage);
    });
    connect(export_rules_, &QPushButton::clicked, this, [this] {
        chooseExport(tr("Export Alert Rules"), tr("Prometheus rules (*.yml *.yaml)"),
                     &FleetTab::exportRules);
    });
    connect(save_answer_, &QPushButton::clicked, this, [this] {
        chooseExport(tr("Save Answer"), tr("query_range answer (*.json)"), &FleetTab::saveAnswer);
    });
    connect(query_, &BackgroundQuery::busyChanged, this, &FleetTab::updateButtons);
    connect(query_, &BackgroundQuery::cancelled, this, [this] {
        setStatus(tr("Cancelled: %1").arg(running_source_), true);
        emit queryDone(false);
    });
    updateButtons();
}

FleetTab::~FleetTab() = default;

void FleetTab::buildLayout() {
    auto* bar = new QHBoxLayout;
    for (QWidget* w : {static_cast<QWidget*>(query_button_), static_cast<QWidget*>(cancel_)})
        bar->addWidget(w);
    bar->addWidget(progress_);
    bar->addWidget(status_, 1);
    for (QPushButton* b : {export_image_, export_rules_, save_answer_}) bar->addWidget(b);
    progress_->setMaximumWidth(160);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long URL or path must not widen the main window; the tooltip has it whole.
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    calibration_->setColumnCount(7);
    calibration_->setHorizontalHeaderLabels({tr("Row"), tr("SLA"), tr("Threshold"), tr("State"),
                                             tr("Proposal"), tr("Started"), tr("Settled")});
    calibration_->horizontalHeader()->setStretchLastSection(true);
    calibration_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    calibration_->verticalHeader()->hide();
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plot_);
    split->addWidget(calibration_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* pages = new QTabWidget(this);
    pages->setObjectName(QStringLiteral("fleetPages"));
    pages->addTab(split, tr("Matrix"));
    pages->addTab(compare_, tr("Compare"));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(pages, 1);
}

PrometheusDialog* FleetTab::openDialog() {
    if (!dialog_) {
        // Kept, so its SecretStore outlives the keyring write that accept() starts.
        dialog_ = new PrometheusDialog(this);
        connect(dialog_, &QDialog::accepted, this, [this] { runQuery(dialog_->query()); });
    }
    dialog_->show();
    dialog_->raise();
    return dialog_;
}

FleetTab::Outcome FleetTab::compute(const FleetQuery& q, const trace::StopToken& stop,
                                    const trace::ProgressFn& progress) {
    Outcome out;
    try {
        const std::int64_t offset = q.compareOffset_s();
        if (q.source == FleetQuery::Source::File) {
            const std::string file = q.file.toStdString();
            out.matrix = fleet::read_fleet_file(file, q.spec(0), std::nullopt);
            // The file's own last window, moved back: the same file holds both ranges.
            // Scrapes have no earlier range to compare with: their windows are theirs.
            if (offset > 0 && !out.matrix->snapshot && !out.matrix->window_end_s.empty())
                out.earlier = fleet::read_fleet_file(file, q.spec(0),
                                                     out.matrix->window_end_s.back() - offset);
        } else {
            const fleet::PrometheusClient client(q.config());
            const auto spec = q.spec(static_cast<std::int64_t>(std::time(nullptr)));
            out.matrix = fleet::query_fleet(client, spec, stop, progress, &out.raw);
            if (offset > 0)
                out.earlier =
                    fleet::query_fleet(client, q.spec(spec.end_s - offset), stop, progress);
        }
    } catch (const trace::Cancelled&) {
        throw;  // BackgroundQuery drops the result
    } catch (const std::exception& e) {
        // FleetError already reads "URL: problem"; others (a bad field) get the source.
        out.error = QString::fromUtf8(e.what());
        if (!out.error.contains(q.sourceName()))
            out.error = q.sourceName() + QStringLiteral(": ") + out.error;
    }
    return out;
}

void FleetTab::runQuery(const FleetQuery& q) {
    running_source_ = q.sourceName();
    received_ = std::make_shared<std::atomic<std::int64_t>>(0);
    auto received = received_;
    const trace::ProgressFn progress = [received](std::int64_t done, std::int64_t) {
        received->store(done, std::memory_order_relaxed);
        return true;
    };
    setStatus(tr("Querying %1…").arg(running_source_), false);
    query_->run(
        tr("Querying %1…").arg(running_source_),
        [q, progress](const trace::StopToken& stop) { return compute(q, stop, progress); },
        [this](const Outcome& o) { showOutcome(o); });
}

void FleetTab::cancelQuery() {
    query_->cancel();
}

bool FleetTab::busy() const {
    return query_->busy();
}

QString FleetTab::statusText() const {
    return status_->text();
}

void FleetTab::showOutcome(const Outcome& o) {
    if (!o.matrix) {
        setStatus(o.error, true);
        emit queryDone(false);
        return;
    }
    matrix_ = o.matrix;
    earlier_ = o.earlier;
    raw_ = o.raw;
    source_ = running_source_;
    plot_->setHeatmap(plots::FleetPlotData::plotData(*matrix_, source_));
    if (earlier_)
        compare_->setMatrices(*earlier_, *matrix_, source_);
    else
        compare_->clear();
    fillCalibration();
    QString status = tr("%1 rows × %2 windows from %3")
                         .arg(matrix_->map.row_count())
                         .arg(matrix_->window_end_s.size())
                         .arg(source_);
    if (matrix_->snapshot && matrix_->snapshot->since_start)
        status += tr(", since the server started");
    if (matrix_->snapshot)  // counter resets: the server restarted between scrapes
        for (const auto& d : matrix_->snapshot->diagnostics)
            status += QStringLiteral("; ") + QString::fromStdString(d);
    setStatus(status, false);
    updateButtons();
    emit queryDone(true);
}

void FleetTab::fillCalibration() {
    const auto& m = *matrix_;
    calibration_->setRowCount(static_cast<int>(m.map.row_count()));
    for (std::size_t r = 0; r < m.map.row_count(); ++r) {
        const auto& c = m.calibration[r];
        const QStringList cells = {
            QString::fromStdString(m.map.row_labels[r]),
            plots::FleetPlotData::durationText(m.map.row_sla[r]),
            plots::FleetPlotData::durationText(c.threshold),
            QString::fromUtf8(fleet::to_string(c.state).data(),
                              static_cast<qsizetype>(fleet::to_string(c.state).size())),
            plots::FleetPlotData::durationText(c.proposal),
            window_cell(m, c.started_at),
            window_cell(m, c.settled_at)};
        for (int col = 0; col < cells.size(); ++col)
            calibration_->setItem(static_cast<int>(r), col, new QTableWidgetItem(cells[col]));
    }
    calibration_->resizeColumnsToContents();
}

void FleetTab::setStatus(const QString& text, bool error) {
    status_->setText(text);
    status_->setToolTip(text);
    status_->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
}

void FleetTab::updateButtons() {
    const bool busy = query_->busy();
    cancel_->setEnabled(busy);
    progress_->setVisible(busy);
    progress_->setRange(0, 0);  // the server announces no size before it answers
    if (busy)
        poll_->start();
    else
        poll_->stop();
    export_image_->setEnabled(matrix_.has_value());
    export_rules_->setEnabled(matrix_.has_value());
    save_answer_->setEnabled(!raw_.empty());
}

void FleetTab::pollProgress() {
    const std::int64_t bytes = received_->load(std::memory_order_relaxed);
    progress_->setFormat(tr("%1 kB").arg(bytes / 1024));
    progress_->setTextVisible(bytes > 0);
}

bool FleetTab::exportImage(const QString& path, QString* error) const {
    return plots::PlotExporter::save(plot_, path, kImageSize, 96, error);
}

bool FleetTab::exportRules(const QString& path, QString* error) const {
    if (!matrix_) return false;
    std::ostringstream rules;
    fleet::write_alert_rules(*matrix_, rules);
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << rules.str();
    out.close();
    if (out) return true;
    if (error) *error = tr("%1: cannot write").arg(path);
    return false;
}

bool FleetTab::saveAnswer(const QString& path, QString* error) const {
    QFile file(path);
    if (file.open(QIODevice::WriteOnly) &&
        file.write(raw_.data(), static_cast<qint64>(raw_.size())) ==
            static_cast<qint64>(raw_.size()))
        return true;
    if (error) *error = tr("%1: %2").arg(path, file.errorString());
    return false;
}

void FleetTab::chooseExport(const QString& what, const QString& filter,
                            bool (FleetTab::*write)(const QString&, QString*) const) {
    const QString path = QFileDialog::getSaveFileName(this, what, QString(), filter);
    if (path.isEmpty()) return;
    QString error;
    if ((this->*write)(path, &error))
        setStatus(tr("Wrote %1").arg(path), false);
    else
        setStatus(error, true);
}

}  // namespace tokenscope::ui
