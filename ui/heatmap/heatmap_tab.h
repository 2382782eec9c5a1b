#pragma once

#include <QPointer>
#include <optional>

#include "analysis/heatmap/heatmap.h"
#include "ui/shared/run_tab.h"

class QCheckBox;
class QLabel;
class QPushButton;

namespace tokenscope::ui::plots {
class HeatmapPlot;
}

namespace tokenscope::ui {

class BackgroundQuery;
class HeatmapControls;
class RunAnalyzer;

// The Heatmap tab: choices above a plots::HeatmapPlot of analysis::compute_heatmap for
// the current run, and Export. The heatmap is claimed from a RunAnalyzer (computed off
// the GUI thread, once however many views show it: the Compare tab's A is the same
// heatmap under the same spec). A click on a cell emits cellActivated with the cell's
// window, for the timeline.
class HeatmapTab : public RunTab {
    Q_OBJECT
  public:
    explicit HeatmapTab(QWidget* parent = nullptr);
    ~HeatmapTab() override;
    // Reads the heatmaps of `analyzer` (the window's, shared with the Compare tab)
    // instead of its own.
    void useAnalyzer(RunAnalyzer* analyzer);
    RunAnalyzer* analyzer() const;
    void setRun(const OpenRun& run) override;
    void setUnit(plots::TimeUnit unit) override;
    bool queryBusy() const override;
    QString queryText() const override;

    HeatmapControls* controls() const { return controls_; }
    plots::HeatmapPlot* plot() const { return plot_; }
    QCheckBox* logScaleBox() const { return log_scale_; }
    // The heatmap on screen, once computed.
    const std::optional<analysis::Heatmap>& heatmap() const { return map_; }
    QString statusText() const;
    bool computing() const;
    // The tab's slot on the analyzer: its heatmap runs there unless another view's
    // claim computes it already.
    BackgroundQuery* query() const { return query_; }

  public slots:
    // The heatmap being computed is dropped; the tab says so until the next one.
    void cancelQuery() override;
    // Asks for format, size, DPI and file, then writes it.
    void exportPlot();
    // Writes the plot (.png/.svg/.pdf) or the matrix (.csv); false with the reason
    // shown in the tab and returned in `error`.
    bool exportTo(const QString& path, QSize size, int dpi, QString* error = nullptr);
    // What a click on (row, column) leads to beyond its window: see tokenActivated.
    void pickCell(int row, int column);

  signals:
    void cellActivated(qint64 t0, qint64 t1);
    // A cell of a request row: the slowest token of that request in the cell's window
    // (a joined run), for the timeline to select with its iteration.
    void tokenActivated(int step);
    void heatmapReady();
    void heatmapFailed(const QString& message);

  private:
    struct Job {
        std::optional<analysis::Heatmap> map;
        QString error;
    };
    void recompute();
    // Shows the claimed heatmap once the analyzer has it (or its error, or its cancel).
    void check();
    void showJob(const Job& job);
    void showCancelled();
    void updateBusy();
    QString title(const analysis::HeatmapSpec& spec) const;

    HeatmapControls* controls_;
    QPushButton* export_;
    QCheckBox* log_scale_;
    QLabel* status_;
    plots::HeatmapPlot* plot_;
    OpenRun run_;
    plots::TimeUnit unit_ = plots::TimeUnit::Milliseconds;
    analysis::HeatmapSpec spec_;  // claimed for run_
    bool shown_ = false;          // run_'s heatmap under spec_ (or why not) is on screen
    bool shown_busy_ = false;
    std::optional<analysis::Heatmap> map_;
    BackgroundQuery* query_;
    QPointer<RunAnalyzer> analyzer_;
    QMetaObject::Connection analyzer_link_;
};

}  // namespace tokenscope::ui
