#pragma once

#include <QString>

#include "fleet/fleet_matrix.h"
#include "heatmap_plot_data.h"

namespace tokenscope::ui::plots {

// The fleet matrix (docs/fleet.md) as the heatmap widget draws it, and the
// words around it: the quantile's name, a cell's tooltip with the quantile value and
// the sample rate behind it, the calibration of a row.
class FleetPlotData {
  public:
    static HeatmapPlotData plotData(const fleet::FleetMatrix& m, const QString& source);
    // "P95", "P99.9", "P50".
    static QString quantileName(double q);
    // Observations per second of a cell's window.
    static double sampleRate(const fleet::FleetMatrix& m, std::size_t row, std::size_t column);
    static QString cellToolTip(const fleet::FleetMatrix& m, std::size_t row, std::size_t column);
    // "18:00–19:00 UTC" (a day prefix where the range spans more than one day).
    static QString windowText(const fleet::FleetMatrix& m, std::size_t column);
    static QString durationText(std::optional<double> ns);
};

}  // namespace tokenscope::ui::plots
