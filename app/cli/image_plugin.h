#pragma once

#include <string>

#include "analysis/heatmap/heatmap.h"
#include "fleet/fleet_matrix.h"
#include "sweep_report.h"

namespace tokenscope::cli {

// The CLI's images are drawn by the GUI's plot code (ui/plots, Qt and QCustomPlot) in
// a module of their own, libtokenscope-images.so, loaded only when a command writes an
// image: loading and relocating Qt's sixty-odd libraries took 14 ms of every start,
// longer than `info` takes to read a small trace. Each function returns the message
// of the UsageError to throw, empty when the image was written.
struct ImagePlugin {
    std::string (*heatmap)(const analysis::Heatmap& map, const std::string& title,
                           const std::string& path, int width, int height, int dpi);
    std::string (*fleet)(const fleet::FleetMatrix& m, const std::string& source,
                         const std::string& title, const std::string& path, int width, int height,
                         int dpi);
    std::string (*sweep)(const SweepReport& report, const std::string& kind,
                         const std::string& path, int width, int height, int dpi);
};

// The module's one exported symbol: extern "C" const ImagePlugin* NAME().
inline constexpr const char* kImagePluginEntry = "tokenscope_image_plugin";
// The module's file name: beside the program in the build tree, in lib/tokenscope
// beside bin/ where it is installed.
inline constexpr const char* kImageModuleName = "libtokenscope-images.so";

// The loaded module (loaded on the first call); throws std::runtime_error naming the
// paths tried when it cannot be loaded (an incomplete installation: exit status 2).
const ImagePlugin& image_plugin();

}  // namespace tokenscope::cli
