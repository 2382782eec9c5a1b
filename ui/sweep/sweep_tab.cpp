#include "sweep_tab.h"

#include <qcustomplot.h>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <fstream>

#include "sweep_point_model.h"
#include "ui/plots/plot_exporter.h"
#include "ui/shared/background_query.h"
#include "ui/shared/row_table.h"

namespace tokenscope::ui {
namespace {

QDoubleSpinBox* bound_box(const QString& name, double value, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setObjectName(name);
    box->setRange(0.0, 1e6);
    box->setDecimals(3);  // 1 µs: a CPU run of a tiny model has TTFTs that small
    box->setSuffix(QStringLiteral(" ms"));
    // 0 is "no bound", which the analysis allows for either one.
    box->setSpecialValueText(QObject::tr("none"));
    box->setValue(value);
    box->setKeyboardTracking(false);  // typing 250 does not redraw at 2 and 25
    return box;
}

QCustomPlot* new_plot(const QString& name, QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    plot->setObjectName(name);
    plot->setMinimumSize(320, 240);
    return plot;
}

QString param(const analysis::SweepPointSummary& p, const std::string& name) {
    auto it = p.params.find(name);
    return it == p.params.end() ? QString() : QString::fromStdString(it->second);
}

QString ms(const analysis::Figures& f, const char* key) {
    auto it = f.find(key);
    return it == f.end() || std::isnan(it->second) ? QStringLiteral("-")
                                                   : QString::number(it->second * 1e-6, 'f', 2);
}

// The draw functions add a title row each time: take the last one away first, and
// the plottables and items, so a redraw does not stack on the previous one.
void reset_plot(QCustomPlot* plot) {
    plot->clearPlottables();
    plot->clearItems();
    auto* layout = plot->plotLayout();
    while (auto* t = qobject_cast<QCPTextElement*>(layout->element(0, 0))) {
        layout->remove(t);
        layout->simplify();
    }
}

}  // namespace

SweepTab::SweepTab(QWidget* parent)
    : QWidget(parent), load_(new BackgroundQuery(this)), query_(new BackgroundQuery(this)) {
    setObjectName(QStringLiteral("sweepTab"));
    model_ = new SweepPointModel(this);
    grid_plot_ = new_plot(QStringLiteral("sweepGrid"), this);
    pareto_plot_ = new_plot(QStringLiteral("sweepPareto"), this);
    knee_plot_ = new_plot(QStringLiteral("sweepKnee"), this);
    strategy_plot_ = new_plot(QStringLiteral("sweepStrategies"), this);
    strategy_plot_->hide();  // shown for a sweep with a strategy axis
    grid_plot_->setMouseTracking(true);
    grid_plot_->installEventFilter(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("sweepTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    fit_columns(table_);
    connect(table_, &QTableView::activated, this,
            [this](const QModelIndex& index) { requestRow(index.row()); });
    connect(table_, &QTableView::clicked, this,
            [this](const QModelIndex& index) { requestRow(index.row()); });

    auto* plots = new QSplitter(Qt::Horizontal);
    plots->addWidget(grid_plot_);
    plots->addWidget(pareto_plot_);
    plots->addWidget(knee_plot_);
    plots->addWidget(strategy_plot_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(plots);
    split->addWidget(table_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(split, 1);
}

SweepTab::~SweepTab() = default;

QWidget* SweepTab::buildControls() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    ttft_ = bound_box(QStringLiteral("slaTtft"), 200.0, bar);
    tpot_ = bound_box(QStringLiteral("slaTpot"), 50.0, bar);
    row->addWidget(new QLabel(tr("SLA: TTFT ≤"), bar));
    row->addWidget(ttft_);
    row->addWidget(new QLabel(tr("TPOT ≤"), bar));
    row->addWidget(tpot_);
    for (auto* box : {ttft_, tpot_})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] { summarize(); });
    status_ =
        new QLabel(tr("No sweep open: open a .tokenscope file made by tokenscope-cli sweep."), bar);
    status_->setObjectName(QStringLiteral("sweepStatus"));
    status_->setWordWrap(true);
    status_->setMinimumWidth(80);  // a long path must not widen the window
    row->addWidget(status_, 1);
    auto add_button = [&](const QString& name, const QString& text, auto slot) {
        auto* b = new QPushButton(text, bar);
        b->setObjectName(name);
        connect(b, &QPushButton::clicked, this, slot);
        row->addWidget(b);
    };
    add_button(QStringLiteral("exportGrid"), tr("Export grid…"),
               [this] { chooseExport(plots::SweepImage::Grid); });
    add_button(QStringLiteral("exportPareto"), tr("Export Pareto…"),
               [this] { chooseExport(plots::SweepImage::Pareto); });
    add_button(QStringLiteral("exportKnee"), tr("Export knee…"),
               [this] { chooseExport(plots::SweepImage::Knee); });
    add_button(QStringLiteral("exportStrategies"), tr("Export strategies…"),
               [this] { chooseStrategyExport(); });
    add_button(QStringLiteral("exportTable"), tr("Export table…"), [this] { chooseTableExport(); });
    return bar;
}

bool SweepTab::busy() const {
    return load_->busy() || query_->busy();
}

void SweepTab::openFiles(const QStringList& paths) {
    status_->setText(tr("Reading the sweep…"));
    load_->run(
        tr("Reading the sweep…"),
        [paths] {
            auto d = std::make_shared<SweepData>();
            for (const QString& p : paths) {
                *d = load_sweep_data(p);
                if (!d->empty()) break;
            }
            return std::shared_ptr<const SweepData>(std::move(d));
        },
        [this](const std::shared_ptr<const SweepData>& d) {
            if (d->empty()) {
                // Not a sweep file: whatever sweep is shown stays.
                if (!hasSweep())
                    status_->setText(d->error.isEmpty() ? tr("The file holds no sweep.")
                                                        : d->error);
                emit sweepLoaded(false);
                return;
            }
            data_ = d;
            summarize();
            emit sweepLoaded(true);  // the window adds this tab
            if (!reveal_path_.isEmpty() && QFileInfo(reveal_path_) == QFileInfo(d->path)) reveal();
        });
}

void SweepTab::reveal() {
    reveal_path_.clear();
    for (QWidget* w = parentWidget(); w != nullptr; w = w->parentWidget())
        if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
            tabs->setCurrentWidget(this);
            return;
        }
}

void SweepTab::setSla(std::optional<double> ttft_ms, std::optional<double> tpot_ms) {
    const QSignalBlocker block(ttft_);  // one summary for both edits
    ttft_->setValue(ttft_ms.value_or(0.0));
    tpot_->setValue(tpot_ms.value_or(0.0));
    summarize();
}

analysis::SlaBounds SweepTab::sla() const {
    analysis::SlaBounds s;
    if (ttft_->value() > 0.0) s.ttft_ns = std::llround(ttft_->value() * 1e6);
    if (tpot_->value() > 0.0) s.tpot_ns = std::llround(tpot_->value() * 1e6);
    return s;
}

void SweepTab::summarize() {
    if (!hasSweep()) return;
    query_->run(
        tr("Summarizing the sweep…"),
        [data = data_, sla = sla()] {
            Summary s;
            s.points = analysis::summarize_sweep(data->points, sla);
            s.curve = analysis::sweep_curve(s.points, sweep_curve_x(*data), "ttft_p99");
            return s;
        },
        [this](const Summary& s) { showSummary(s); });
}

void SweepTab::showSummary(const Summary& s) {
    points_ = s.points;
    curve_ = s.curve;
    strategies_ = analysis::strategy_comparison(points_, data_->axes);
    grid_ = plots::SweepPlot::gridOf(points_, data_->axes);
    model_->setPoints(points_, data_->axes);
    mapCells();
    redraw();
    status_->setText(tr("%1: sweep \"%2\", %3 point(s)%4")
                         .arg(data_->path, data_->name)
                         .arg(points_.size())
                         .arg(data_->model ? tr(" (model)") : QString()));
    emit summarized();
}

void SweepTab::mapCells() {
    // The cell of each point by the labels plots::SweepPlot::gridOf gives its row and column.
    cell_rows_.assign(static_cast<std::size_t>(grid_.rows.size()),
                      std::vector<int>(static_cast<std::size_t>(grid_.columns.size()), -1));
    for (int r = 0; r < model_->rowCount(); ++r) {
        const auto& p = *model_->point(r);
        QString band;
        for (const auto& a : data_->axes)
            if (a != "batch" && a != "prompt")
                band += (band.isEmpty() ? QString() : QStringLiteral(" ")) + param(p, a);
        const QString row = (band.isEmpty() ? QString() : band + QStringLiteral("  ")) +
                            QStringLiteral("batch ") + param(p, "batch");
        const int y = static_cast<int>(grid_.rows.indexOf(row));
        const int x = static_cast<int>(grid_.columns.indexOf(param(p, "prompt")));
        if (y >= 0 && x >= 0)
            cell_rows_[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] = r;
    }
}

QString SweepTab::title(const QString& what) const {
    return what + (data_ && data_->model ? tr(" (model)") : QString());
}

void SweepTab::redraw() {
    for (QCustomPlot* plot : {grid_plot_, pareto_plot_, knee_plot_, strategy_plot_})
        reset_plot(plot);
    strategy_plot_->setVisible(!strategies_.empty());
    if (!strategies_.empty())
        plots::SweepPlot::drawStrategies(strategy_plot_, strategies_,
                                         title(tr("Decoding strategies")));
    if (!grid_.rows.isEmpty())
        plots::SweepPlot::drawGrid(grid_plot_, grid_, title(tr("SLA attainment")));
    if (!curve_.x.empty()) {
        plots::SweepPlot::drawPareto(pareto_plot_, curve_, title(tr("Pareto")));
        plots::SweepPlot::drawKnee(knee_plot_, curve_, title(tr("Knee")));
        // A little room around the data: rescaleAxes puts the end points on the frame.
        for (QCustomPlot* plot : {pareto_plot_, knee_plot_}) {
            plot->xAxis->scaleRange(1.1);
            plot->yAxis->scaleRange(1.1);
        }
    }
    for (QCustomPlot* plot : {grid_plot_, pareto_plot_, knee_plot_, strategy_plot_}) plot->replot();
}

int SweepTab::rowOfCell(int row, int column) const {
    if (row < 0 || column < 0 || row >= static_cast<int>(cell_rows_.size())) return -1;
    const auto& cells = cell_rows_[static_cast<std::size_t>(row)];
    return column < static_cast<int>(cells.size()) ? cells[static_cast<std::size_t>(column)] : -1;
}

QPoint SweepTab::cellCentre(int row, int column) const {
    const int ny = static_cast<int>(grid_.rows.size());
    return QPoint(static_cast<int>(grid_plot_->xAxis->coordToPixel(column)),
                  static_cast<int>(grid_plot_->yAxis->coordToPixel(ny - 1 - row)));
}

std::pair<int, int> SweepTab::cellAt(QPoint pos) const {
    const int ny = static_cast<int>(grid_.rows.size());
    if (ny == 0 || !grid_plot_->axisRect()->rect().contains(pos)) return {-1, -1};
    const int x = static_cast<int>(std::lround(grid_plot_->xAxis->pixelToCoord(pos.x())));
    const int y = ny - 1 - static_cast<int>(std::lround(grid_plot_->yAxis->pixelToCoord(pos.y())));
    if (rowOfCell(y, x) < 0) return {-1, -1};
    return {y, x};
}

QString SweepTab::cellToolTip(int row, int column) const {
    const auto* p = model_->point(rowOfCell(row, column));
    if (!p) return {};
    auto att = p->median.find("attainment");
    return tr("%1, prompt %2\nattainment %3% (median of %4 run(s))\nTTFT P50 %5 ms, P99 %6 ms\n"
              "TPOT P50 %7 ms, P99 %8 ms\nclick: open its first run")
        .arg(grid_.rows[row], grid_.columns[column])
        .arg(att == p->median.end() ? 0.0 : att->second * 100.0, 0, 'f', 1)
        .arg(p->run_ids.size())
        .arg(ms(p->median, "ttft_p50"), ms(p->median, "ttft_p99"), ms(p->median, "tpot_p50"),
             ms(p->median, "tpot_p99"));
}

bool SweepTab::eventFilter(QObject* watched, QEvent* event) {
    if (watched != grid_plot_) return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto [row, column] = cellAt(help->pos());
        if (row >= 0)
            QToolTip::showText(help->globalPos(), cellToolTip(row, column), grid_plot_);
        else
            QToolTip::hideText();
        return true;
    }
    if (event->type() == QEvent::MouseButtonRelease) {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const auto [row, column] = cellAt(mouse->position().toPoint());
        if (mouse->button() == Qt::LeftButton && row >= 0) {
            const int table_row = rowOfCell(row, column);
            table_->selectRow(table_row);
            requestRow(table_row);
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SweepTab::requestRow(int row) {
    const auto* p = model_->point(row);
    if (p && !p->run_ids.empty()) emit runRequested(data_->path, p->run_ids.front());
}

bool SweepTab::exportImage(plots::SweepImage kind, const QString& path, QString* error) {
    QCustomPlot* plot = kind == plots::SweepImage::Grid         ? grid_plot_
                        : kind == plots::SweepImage::Pareto     ? pareto_plot_
                        : kind == plots::SweepImage::Strategies ? strategy_plot_
                                                                : knee_plot_;
    // The plot as on screen, at least 640x480 so a small pane still gives a usable image.
    const QSize size = plot->size().expandedTo(QSize(640, 480));
    return plots::PlotExporter::save(plot, path, size, 96, error);
}

bool SweepTab::exportTable(const QString& path, QString* error) const {
    return model_->saveCsv(path, error);
}

bool SweepTab::exportStrategies(const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, why);
        return false;
    };
    if (strategies_.empty()) return fail(tr("the sweep has no strategy axis"));
    if (plots::PlotExporter::formatOf(path) != plots::PlotExporter::Format::Csv)
        return exportImage(plots::SweepImage::Strategies, path, error);
    std::ofstream out(path.toStdString(), std::ios::trunc);
    analysis::write_strategy_csv(out, strategies_);
    out.flush();
    return out ? true : fail(tr("cannot write the file"));
}

void SweepTab::chooseStrategyExport() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export strategies"), QString(), tr("Images or CSV (*.png *.svg *.pdf *.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportStrategies(path, &error)) status_->setText(tr("Export failed: %1").arg(error));
}

void SweepTab::chooseExport(plots::SweepImage kind) {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export plot"), QString(),
                                                      tr("Images (*.png *.svg *.pdf)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportImage(kind, path, &error)) status_->setText(tr("Export failed: %1").arg(error));
}

void SweepTab::chooseTableExport() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export table"), QString(), tr("CSV (*.csv)"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportTable(path, &error)) status_->setText(tr("Export failed: %1").arg(error));
}

}  // namespace tokenscope::ui
