#pragma once

#include <string>

#include "sweep_report.h"

namespace tokenscope::cli {

// Saves the report's grid, Pareto, knee or strategies view with the GUI's plot code
// (ui::plots::SweepPlot), headless; the format follows the extension (.png, .svg, .pdf; the
// strategies also .csv).
// Throws UsageError naming the file and the problem.
void export_sweep_image(const SweepReport& report, const std::string& kind, const std::string& path,
                        int width, int height, int dpi);

}  // namespace tokenscope::cli
