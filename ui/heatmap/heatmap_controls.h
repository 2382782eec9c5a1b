#pragma once

#include <QWidget>

#include "analysis/heatmap/heatmap.h"

class QComboBox;
class QSpinBox;

namespace tokenscope::ui {

// The heatmap's choices above the plot: metric, rows, window (a step count or a
// time), top-N kernels and SLA calibration windows. Rows and metric stay a pair
// compute_heatmap accepts: kernel and lane rows take kernel durations, the
// others a step metric.
class HeatmapControls : public QWidget {
    Q_OBJECT
  public:
    explicit HeatmapControls(QWidget* parent = nullptr);

    analysis::HeatmapSpec spec() const;
    // A spec the program chose (a test, a "show this heatmap" action): kept
    // across runs, fitToRun leaves it alone.
    void setSpec(const analysis::HeatmapSpec& spec);
    // QSettings under `group`, so Heatmap and Compare remember their own choices.
    void save(const QString& group) const;
    void restore(const QString& group);
    // The run's own default heatmap (analysis::default_heatmap_spec), unless
    // the user chose one for this kind of run before: remembered under
    // base/KIND (decode, trace, serving), so a trace's choice does not
    // replace a decode run's.
    void fitToRun(const trace::RunData& run, const QString& base);
    // Two runs compared: analysis::default_compare_spec, so two engines' traces compare
    // by kernel role; that choice is remembered under base/engines.
    void fitToRuns(const trace::RunData& a, const trace::RunData& b, const QString& base);
    // Saves the current choice under the group fitToRun chose; nothing before.
    void saveChoice() const;

    QComboBox* rowsBox() const { return rows_; }
    QComboBox* metricBox() const { return metric_; }
    QSpinBox* windowBox() const { return window_; }
    QComboBox* windowUnitBox() const { return window_unit_; }

  signals:
    void specChanged();

  private:
    void applySpec(const analysis::HeatmapSpec& spec);
    void fitMetricToRows();
    void updateEnabled();

    QComboBox* metric_;
    QComboBox* rows_;
    QSpinBox* window_;
    QComboBox* window_unit_;
    QSpinBox* top_n_;
    QSpinBox* sla_windows_;
    bool quiet_ = false;   // no specChanged while setting several boxes
    QString group_;        // QSettings group of the run kind shown
    bool pinned_ = false;  // setSpec was called: fitToRun keeps the spec
};

}  // namespace tokenscope::ui
