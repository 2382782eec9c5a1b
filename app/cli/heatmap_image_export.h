#pragma once

#include <string>

#include "analysis/heatmap.h"

namespace tokenscope::cli {

// Renders the heatmap headless with the GUI's own plot code (offscreen Qt platform),
// by the file's extension: .png, .svg or .pdf. Throws UsageError naming the file.
void export_heatmap_image(const analysis::Heatmap& map, const std::string& title,
                          const std::string& path, int width, int height, int dpi);

}  // namespace tokenscope::cli
