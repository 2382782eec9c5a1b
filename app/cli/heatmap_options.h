#pragma once

#include "analysis/heatmap.h"
#include "arg_parser.h"

namespace tokenscope::cli {

// The heatmap options shared by `heatmap` and `diff`.
void add_heatmap_options(ArgParser& p);
analysis::HeatmapSpec heatmap_spec_from(const ArgParser& p);
// "100ms", "250us", "5000000ns", "2s" (time windows) or "16steps" (step windows).
void parse_window(const std::string& text, analysis::HeatmapSpec& spec);

}  // namespace tokenscope::cli
