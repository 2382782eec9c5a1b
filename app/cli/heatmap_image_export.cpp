#include "heatmap_image_export.h"

#include "arg_parser.h"
#include "image_plugin.h"

namespace tokenscope::cli {

void export_heatmap_image(const analysis::Heatmap& map, const std::string& title,
                          const std::string& path, int width, int height, int dpi) {
    const std::string error = image_plugin().heatmap(map, title, path, width, height, dpi);
    if (!error.empty()) throw UsageError{error};
}

void export_fleet_image(const fleet::FleetMatrix& m, const std::string& source,
                        const std::string& title, const std::string& path, int width, int height,
                        int dpi) {
    const std::string error = image_plugin().fleet(m, source, title, path, width, height, dpi);
    if (!error.empty()) throw UsageError{error};
}

}  // namespace tokenscope::cli
