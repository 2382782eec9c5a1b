#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/sweep/strategy_comparison.h"
#include "analysis/sweep/sweep_curve.h"
#include "sweep_loader.h"
#include "ui/plots/sweep_plot.h"

class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QMouseEvent;
class QTableView;

namespace tokenscope::ui {

class BackgroundQuery;
class SweepPointModel;

// The Sweep tab (docs/sweeps.md, Views): the SLA-attainment grid (batch x prompt),
// the Pareto plot with frontier, fit and knee, the knee plot, the decoding strategies
// side by side (when the sweep has a strategy axis) and the point table,
// all for the SLA bounds above them; an edited bound re-summarizes the sweep off
// the GUI thread and redraws. Reading the file is a background query too.
class SweepTab : public QWidget {
    Q_OBJECT
  public:
    explicit SweepTab(QWidget* parent = nullptr);
    ~SweepTab() override;

    // Shows the last sweep of the first of `paths` that holds one; a file without a
    // sweep leaves what is shown. sweepLoaded() tells the outcome.
    void openFiles(const QStringList& paths);
    bool hasSweep() const { return data_ && !data_->empty(); }
    bool busy() const;
    QString path() const { return data_ ? data_->path : QString(); }

    // Either bound may be absent (no bound).
    void setSla(std::optional<double> ttft_ms, std::optional<double> tpot_ms);
    analysis::SlaBounds sla() const;

    const plots::SweepPlot::Grid& grid() const { return grid_; }
    const analysis::SweepCurve& curve() const { return curve_; }
    SweepPointModel* pointModel() const { return model_; }
    QCustomPlot* gridPlot() const { return grid_plot_; }
    // The table row of the grid cell, -1 for an empty cell.
    int rowOfCell(int row, int column) const;
    // The widget position of a grid cell's centre in gridPlot().
    QPoint cellCentre(int row, int column) const;
    QString cellToolTip(int row, int column) const;

    bool exportImage(plots::SweepImage kind, const QString& path, QString* error = nullptr);
    bool exportTable(const QString& path, QString* error = nullptr) const;
    // The strategy comparison (empty without a strategy axis) and its plot; its export
    // takes .png, .svg, .pdf or .csv (analysis::write_strategy_csv).
    const std::vector<analysis::StrategyRow>& strategies() const { return strategies_; }
    QCustomPlot* strategyPlot() const { return strategy_plot_; }
    bool exportStrategies(const QString& path, QString* error = nullptr);

  public slots:
    // Brings this tab to the front of its tab widget once `path` has been read with
    // a sweep in it (a sweep the run launcher just finished).
    void revealWhenLoaded(const QString& path) { reveal_path_ = path; }

  signals:
    void sweepLoaded(bool has_sweep);
    // A grid cell or table row was activated: that point's first counted run.
    void runRequested(const QString& path, qint64 run_id);
    void summarized();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    struct Summary {
        std::vector<analysis::SweepPointSummary> points;
        analysis::SweepCurve curve;
    };

    QWidget* buildControls();
    void summarize();
    void showSummary(const Summary& summary);
    void redraw();
    void mapCells();
    std::pair<int, int> cellAt(QPoint pos) const;
    void requestRow(int row);
    void chooseExport(plots::SweepImage kind);
    void chooseTableExport();
    void chooseStrategyExport();
    QString title(const QString& what) const;

    void reveal();

    std::shared_ptr<const SweepData> data_;
    QString reveal_path_;
    std::vector<analysis::SweepPointSummary> points_;
    plots::SweepPlot::Grid grid_;
    std::vector<std::vector<int>> cell_rows_;  // [grid row][column] -> table row
    analysis::SweepCurve curve_;
    std::vector<analysis::StrategyRow> strategies_;

    BackgroundQuery* load_;
    BackgroundQuery* query_;
    QLabel* status_ = nullptr;
    QDoubleSpinBox* ttft_ = nullptr;
    QDoubleSpinBox* tpot_ = nullptr;
    QCustomPlot* grid_plot_ = nullptr;
    QCustomPlot* pareto_plot_ = nullptr;
    QCustomPlot* knee_plot_ = nullptr;
    QCustomPlot* strategy_plot_ = nullptr;
    QTableView* table_ = nullptr;
    SweepPointModel* model_ = nullptr;
};

}  // namespace tokenscope::ui
