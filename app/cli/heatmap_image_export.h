#pragma once

#include <string>

#include "analysis/heatmap/heatmap.h"
#include "fleet/fleet_matrix.h"

namespace tokenscope::cli {

// Renders the heatmap headless with the GUI's own plot code (offscreen Qt platform),
// by the file's extension: .png, .svg or .pdf. Throws UsageError naming the file.
void export_heatmap_image(const analysis::Heatmap& map, const std::string& title,
                          const std::string& path, int width, int height, int dpi);
// The fleet matrix, labelled by its quantile and UTC windows as the Fleet tab draws it.
void export_fleet_image(const fleet::FleetMatrix& m, const std::string& source,
                        const std::string& title, const std::string& path, int width, int height,
                        int dpi);

}  // namespace tokenscope::cli
