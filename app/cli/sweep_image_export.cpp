#include "sweep_image_export.h"

#include <fstream>

#include "analysis/sweep/strategy_comparison.h"
#include "arg_parser.h"
#include "image_plugin.h"

namespace tokenscope::cli {

void export_sweep_image(const SweepReport& r, const std::string& kind, const std::string& path,
                        int width, int height, int dpi) {
    if (kind == "strategies" && path.ends_with(".csv")) {
        const auto rows = analysis::strategy_comparison(r.points, r.input.axes);
        if (rows.empty())
            throw UsageError{"sweep-report: " + path + ": the sweep has no strategy axis"};
        std::ofstream out(path, std::ios::trunc);
        analysis::write_strategy_csv(out, rows);
        out.flush();
        if (!out) throw UsageError{"sweep-report: " + path + ": cannot write the file"};
        return;
    }
    const std::string error = image_plugin().sweep(r, kind, path, width, height, dpi);
    if (!error.empty()) throw UsageError{error};
}

}  // namespace tokenscope::cli
