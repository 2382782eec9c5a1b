#pragma once

#include <QPointer>
#include <memory>
#include <optional>

#include "analysis/compare/diff.h"
#include "ui/shared/run_tab.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace tokenscope::ui::plots {
class HeatmapPlot;
}

namespace tokenscope::ui {

class BackgroundQuery;
class HeatmapControls;
class IterationDeltaModel;
class KernelDeltaModel;
class MetricDeltaModel;
class RunAnalyzer;
class RunListModel;

// The Compare tab (docs/compare.md): runs A and B from analysis::diff_runs
// (computed off the GUI thread) on the analyses and heatmaps of A and B claimed from a
// RunAnalyzer, so no run is attributed twice (the window's analyzer has the current
// run's already): their heatmaps side by side on one shared colour
// scale, the B - A delta heatmap on a diverging scale, the metric delta table with
// significance and a sortable, filterable per-kernel delta table (short kernel names,
// the full name as tooltip). Runs with engine iterations get the iteration comparison
// too: one sentence per phase and the per-phase table. Swap exchanges A and B. A and B
// are picked from the open runs (two boxes above the comparison, any two runs, two of one
// file too), from the runs list's menu, or by dropping files; the main window calls
// compare() for those.
class CompareTab : public RunTab {
    Q_OBJECT
  public:
    explicit CompareTab(QWidget* parent = nullptr);
    ~CompareTab() override;
    // Reads the analyses and heatmaps of `analyzer` (the window's, shared with the other
    // views) instead of its own.
    void useAnalyzer(RunAnalyzer* analyzer);
    RunAnalyzer* analyzer() const;
    // The current run is not what Compare shows; A and B are.
    void setRun(const OpenRun& run) override { Q_UNUSED(run); }
    void setUnit(plots::TimeUnit unit) override;
    bool queryBusy() const override;
    QString queryText() const override;
    void compare(const OpenRun& a, const OpenRun& b);
    // One side, the other kept (the runs list's Set as A / Set as B).
    void setRunA(const OpenRun& a) { compare(a, b_); }
    void setRunB(const OpenRun& b) { compare(a_, b); }
    // The open runs the A and B boxes offer (the window's runs list).
    void setRunList(RunListModel* runs);
    QComboBox* pickA() const { return pick_a_; }
    QComboBox* pickB() const { return pick_b_; }
    const OpenRun& runA() const { return a_; }
    const OpenRun& runB() const { return b_; }

    HeatmapControls* controls() const { return controls_; }
    plots::HeatmapPlot* plotA() const { return plot_a_; }
    plots::HeatmapPlot* plotB() const { return plot_b_; }
    plots::HeatmapPlot* plotDelta() const { return plot_delta_; }
    MetricDeltaModel* metricModel() const { return metrics_; }
    KernelDeltaModel* kernelModel() const { return kernels_; }
    IterationDeltaModel* iterationModel() const { return iterations_; }
    // The iteration comparison's sentences, one per phase; empty without iterations.
    QString iterationText() const;
    bool showsIterations() const;
    QSortFilterProxyModel* kernelProxy() const { return kernel_proxy_; }
    QTableView* kernelView() const { return kernel_view_; }
    QPushButton* swapButton() const { return swap_; }
    const std::optional<analysis::RunDiff>& diff() const { return diff_; }
    QString statusText() const;
    bool showsEmptyState() const;
    // The diff's own query, once the analyses and heatmaps of A and B are in.
    BackgroundQuery* query() const { return query_; }

  public slots:
    void swap();
    // The comparison being computed is dropped; the tab says so until the next one.
    void cancelQuery() override;
    void exportPlot();

  signals:
    void diffReady();

  public:
    // What the background diff hands back.
    struct Job {
        std::optional<analysis::RunDiff> diff;
        QString error;          // the diff failed
        QString heatmap_error;  // the diff without heatmaps; why they are missing
    };

  private:
    QWidget* buildPlots();
    QWidget* buildTables();
    void recompute();
    // Starts the diff once the analyzer has what it claimed for A and B.
    void tryDiff();
    void updateBusy();
    void showCancelled();
    void show(const Job& job);
    void showHeatmaps(const analysis::RunDiff& diff);
    void showIterations(const analysis::IterationDiff& iterations);
    QString label(const OpenRun& run) const;
    void fillPicks();
    void showPicks();
    void picked();

    QStackedWidget* stack_;
    QComboBox* pick_a_;
    QComboBox* pick_b_;
    QPointer<RunListModel> run_list_;
    QLabel* empty_;
    QLabel* runs_;
    QLabel* status_;
    QPushButton* swap_;
    QPushButton* export_;
    HeatmapControls* controls_;
    plots::HeatmapPlot* plot_a_;
    plots::HeatmapPlot* plot_b_;
    plots::HeatmapPlot* plot_delta_;
    MetricDeltaModel* metrics_;
    KernelDeltaModel* kernels_;
    IterationDeltaModel* iterations_;
    QLabel* iteration_text_;
    QWidget* iteration_pane_ = nullptr;
    QTabWidget* tables_ = nullptr;  // metrics, kernels, engine iterations
    QSortFilterProxyModel* kernel_proxy_;
    QTableView* kernel_view_ = nullptr;
    QLineEdit* filter_ = nullptr;
    OpenRun a_;
    OpenRun b_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
    std::optional<analysis::RunDiff> diff_;
    analysis::HeatmapSpec spec_;  // claimed for A and B
    bool waiting_ = false;        // for the analyzer, before the diff starts
    bool shown_busy_ = false;
    BackgroundQuery* query_;
    QPointer<RunAnalyzer> analyzer_;
    QMetaObject::Connection analyzer_link_;
};

}  // namespace tokenscope::ui
