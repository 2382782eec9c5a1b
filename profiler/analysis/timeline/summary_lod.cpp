#include "summary_lod.h"

#include <cmath>

namespace tokenscope::analysis {

int SummaryLod::level_for(const std::vector<store::SummaryLevel>& levels, double ns_per_px,
                          double max_px) {
    const double widest_ns = ns_per_px * max_px;
    int best = -1;
    for (const auto& level : levels) {
        if (std::ldexp(1.0, level.bin_log2()) > widest_ns) break;
        best = level.level;
    }
    return best;
}

}  // namespace tokenscope::analysis
