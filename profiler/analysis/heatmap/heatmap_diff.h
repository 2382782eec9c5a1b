#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "heatmap.h"

namespace tokenscope::analysis {

// B - A of two heatmaps computed with the same spec: rows matched by label text
// (A's rows in A's order, then rows only in B in B's order), columns by index
// (the longer run's count). A cell is B - A where both cells have a P95, blank
// otherwise.
struct HeatmapDiff {
    std::vector<std::string> row_labels;
    std::vector<std::optional<std::size_t>> row_in_a, row_in_b;  // source rows
    std::size_t columns = 0;
    std::vector<std::optional<double>> delta;  // row-major, rows x columns
    double range = 0;  // max |delta|: the diverging scale runs over [-range, +range]
    // Shared scale for side-by-side A and B heatmaps: min and max over both.
    std::optional<double> shared_min, shared_max;

    const std::optional<double>& at(std::size_t row, std::size_t column) const {
        return delta[row * columns + column];
    }
};

HeatmapDiff diff_heatmaps(const Heatmap& a, const Heatmap& b);

}  // namespace tokenscope::analysis
