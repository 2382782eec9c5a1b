#pragma once

#include <string>

#include "analysis/attribution/category.h"

namespace tokenscope::cli {

// A category's name in a table: in text the name a person reads, as the GUI shows it
// ("GPU compute", "NVLink / xGMI": AMD's xGMI counts as NVLink, DESIGN.md section 14);
// CSV and JSON keep every key as it is ("gpu_compute", "nvlink"): scripts read those.
inline std::string category_label(analysis::Category c, bool csv) {
    return std::string(csv ? analysis::to_string(c) : analysis::display_name(c));
}

}  // namespace tokenscope::cli
