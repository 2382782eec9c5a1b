#pragma once

#include "heatmap.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::store {
class StoreReader;
}

namespace tokenscope::analysis {

// compute_heatmap for a run whose activities stayed in its .tokenscope file
// (trace::RunData::in_file, DESIGN.md section 17). A step metric needs none of them. Kernel
// rows read them lane by lane (store::LaneStream), in two passes (the rows, then the cells)
// with a duration histogram per cell, never the whole run at once: each cell's P95 is
// within Heatmap::value_error of the exact one, its count exact. Throws what
// compute_heatmap throws, and StoreError for a damaged file.
Heatmap compute_stored_heatmap(const store::StoreReader& reader, const trace::RunData& run,
                               const HeatmapSpec& spec, const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
