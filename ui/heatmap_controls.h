#pragma once

#include <QWidget>

#include "analysis/heatmap.h"

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
    void setSpec(const analysis::HeatmapSpec& spec);
    // QSettings under `group`, so Heatmap and Compare remember their own choices.
    void save(const QString& group) const;
    void restore(const QString& group);

    QComboBox* rowsBox() const { return rows_; }
    QComboBox* metricBox() const { return metric_; }
    QSpinBox* windowBox() const { return window_; }
    QComboBox* windowUnitBox() const { return window_unit_; }

  signals:
    void specChanged();

  private:
    void fitMetricToRows();
    void updateEnabled();

    QComboBox* metric_;
    QComboBox* rows_;
    QSpinBox* window_;
    QComboBox* window_unit_;
    QSpinBox* top_n_;
    QSpinBox* sla_windows_;
    bool quiet_ = false;  // no specChanged while setting several boxes
};

}  // namespace tokenscope::ui
