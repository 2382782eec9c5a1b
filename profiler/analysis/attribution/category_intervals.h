#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "category.h"
#include "classifier.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::analysis {

// The first half of attribution (docs/attribution.md): where each category is active.
// The second half, the priority sweep that gives every instant to one category, is
// Coverage's.

struct Interval {
    std::int64_t start, end;
};

// Scheduling has no intervals of its own: it is whatever none of the others cover.
inline constexpr std::size_t kActiveCategories = kCategoryCount - 1;

// Per category, the union over all lanes of its activities' [start, end): sorted,
// disjoint and not touching. With `window`, only activities overlapping it count.
// Built in O(N log lanes) from one pass over the activities in trace::activity_order
// (an index is sorted first when the run is not in that order).
using CategoryUnions = std::array<std::vector<Interval>, kActiveCategories>;
CategoryUnions category_unions(const trace::RunData& run, Classifier& classifier,
                               std::optional<std::pair<std::int64_t, std::int64_t>> window,
                               const trace::StopToken& stop);

}  // namespace tokenscope::analysis
