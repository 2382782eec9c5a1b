#pragma once

#include <QString>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "fleet/fleet_matrix.h"
#include "fleet_query.h"
#include "trace/progress.h"
#include "trace/stop_token.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;

namespace tokenscope::ui::plots {
class HeatmapPlot;
}

namespace tokenscope::ui {

class BackgroundQuery;
class FleetCompareView;
class PrometheusDialog;

// The Fleet view (docs/fleet.md): the fleet matrix from a Prometheus server
// or a saved answer / OpenMetrics file in the heatmap widget (tooltips with the
// quantile and the sample rate behind it, SLA outlines, recalibration flags), the
// per-row calibration table, and exports of the image, the alerting rules and the
// server's answer. The query runs on the thread pool (BackgroundQuery): the GUI
// thread never waits for the server, and Cancel stops the transfer within a second.
class FleetTab : public QWidget {
    Q_OBJECT
  public:
    explicit FleetTab(QWidget* parent = nullptr);
    ~FleetTab() override;

    // File > Open Prometheus…: the dialog (not modal to the event loop); its
    // accepted query runs here. Returns the dialog, which the tab keeps.
    PrometheusDialog* openDialog();
    // Starts the query in the background, superseding any running one.
    void runQuery(const FleetQuery& query);
    void cancelQuery();

    bool busy() const;
    QString statusText() const;
    const std::optional<fleet::FleetMatrix>& matrix() const { return matrix_; }
    plots::HeatmapPlot* plot() const { return plot_; }
    FleetCompareView* compareView() const { return compare_; }
    // The compared earlier range's matrix, when the query asked for one.
    const std::optional<fleet::FleetMatrix>& earlierMatrix() const { return earlier_; }

    // false with `error` naming the file and the problem.
    bool exportImage(const QString& path, QString* error = nullptr) const;
    bool exportRules(const QString& path, QString* error = nullptr) const;
    bool saveAnswer(const QString& path, QString* error = nullptr) const;

  signals:
    // A query finished (matrix on screen), failed or was cancelled.
    void queryDone(bool ok);

  private:
    struct Outcome {
        std::optional<fleet::FleetMatrix> matrix;
        std::optional<fleet::FleetMatrix> earlier;  // Compare: the earlier range
        QString error;
        std::string raw;  // the server's answer, for Save Answer
    };
    static Outcome compute(const FleetQuery& q, const trace::StopToken& stop,
                           const trace::ProgressFn& progress);
    void buildLayout();
    void showOutcome(const Outcome& outcome);
    void fillCalibration();
    void setStatus(const QString& text, bool error);
    void updateButtons();
    void pollProgress();
    void chooseExport(const QString& what, const QString& filter,
                      bool (FleetTab::*write)(const QString&, QString*) const);

    BackgroundQuery* query_;
    PrometheusDialog* dialog_ = nullptr;
    QPushButton* query_button_;
    QPushButton* cancel_;
    QPushButton* export_image_;
    QPushButton* export_rules_;
    QPushButton* save_answer_;
    QLabel* status_;
    QProgressBar* progress_;
    plots::HeatmapPlot* plot_;
    QTableWidget* calibration_;
    FleetCompareView* compare_;
    QTimer* poll_;
    // Bytes received so far by the running query, written by the pool thread and
    // read by the GUI's timer: no pointer to this widget ever crosses threads.
    std::shared_ptr<std::atomic<std::int64_t>> received_;
    std::optional<fleet::FleetMatrix> matrix_;
    std::optional<fleet::FleetMatrix> earlier_;
    std::string raw_;
    QString running_source_;
    QString source_;
};

}  // namespace tokenscope::ui
