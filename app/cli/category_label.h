#pragma once

#include <string>

#include "analysis/category.h"

namespace tokenscope::cli {

// A category's name in a text table: "NVLink / xGMI" for nvlink (AMD's xGMI counts as
// NVLink, DESIGN.md section 14), else its key ("gpu_compute"). CSV and JSON keep every
// key as it is ("nvlink"): scripts read those.
inline std::string category_label(analysis::Category c, bool csv) {
    if (!csv && c == analysis::Category::Nvlink) return "NVLink / xGMI";
    return std::string(analysis::to_string(c));
}

}  // namespace tokenscope::cli
