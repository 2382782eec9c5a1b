#pragma once

#include <iosfwd>

#include "heatmap.h"

namespace tokenscope::analysis {

// The P95 matrix as CSV (RFC 4180): a header "row,<window start ns>...", then one
// line per row: the label, then each cell's P95 in ns (shortest round-trip
// decimal), empty for a blank cell. Labels with commas or quotes are quoted.
void write_heatmap_csv(const Heatmap& map, std::ostream& out);

}  // namespace tokenscope::analysis
