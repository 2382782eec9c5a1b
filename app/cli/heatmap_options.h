#pragma once

#include "analysis/heatmap/heatmap.h"
#include "arg_parser.h"

namespace tokenscope::cli {

// The heatmap options shared by `heatmap` and `diff`.
void add_heatmap_options(ArgParser& p);
// Options the user did not give come from `defaults` (the run's own default
// heatmap, analysis::default_heatmap_spec).
analysis::HeatmapSpec heatmap_spec_from(const ArgParser& p, const analysis::HeatmapSpec& defaults);
// "100ms", "250us", "5000000ns", "2s" (time windows) or "16steps" (step windows).
void parse_window(const std::string& text, analysis::HeatmapSpec& spec);

}  // namespace tokenscope::cli
