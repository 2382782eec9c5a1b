#pragma once

#include <QString>
#include <string>
#include <vector>

#include "analysis/sweep/sweep_summary.h"

namespace tokenscope::ui {

// The last sweep of a .tokenscope file with its runs' requests, read off the GUI
// thread once; the tab re-summarizes it for every SLA edit without touching the file.
struct SweepData {
    QString path, name, error;  // error: why there is no sweep (empty file: none)
    std::vector<std::string> axes;
    std::vector<analysis::SweepPointRuns> points;
    bool model = false;  // any run from the model backends: titles say "(model)"
    bool empty() const { return points.empty(); }
};

// Never throws: a file without sweep tables or a broken one gives empty data.
SweepData load_sweep_data(const QString& path);
// The x of the Pareto curve: the load axis, else the first numeric axis, else throughput.
std::string sweep_curve_x(const SweepData& data);

}  // namespace tokenscope::ui
