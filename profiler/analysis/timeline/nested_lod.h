#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "timeline_lod.h"

namespace tokenscope::analysis {

// Timeline level of detail for a lane with nesting (host ranges around API calls), by
// TimelineLod's rule (TimelineLod::wide_ns) applied per depth row: an activity at least
// min_px wide is drawn itself; narrower ones fold into their row's open block when they
// start within min_px of its end, else open a new one. The caller visits the lane's
// visible activities in start order with their depth; rows below the last shown share it.
class NestedLod {
  public:
    // Throws std::invalid_argument when ns_per_px is not positive.
    NestedLod(double ns_per_px, int rows, double min_px = 3.0);

    void add(std::size_t index, std::int64_t start_ns, std::int64_t end_ns, int depth);
    // The items, drawn spans as they came and each row's blocks as they closed; the
    // folder may not be used afterwards.
    std::vector<LodItem> finish();

  private:
    void flush(LodItem& block);

    std::int64_t wide_ns_;
    std::vector<LodItem> open_;  // per row; count 0: none open
    std::vector<LodItem> out_;
};

}  // namespace tokenscope::analysis
