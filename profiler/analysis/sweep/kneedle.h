#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace tokenscope::analysis {

// The Kneedle knee (Satopaa et al. 2011) of samples y(x), x increasing: with x and
// y normalised to [0,1], the sample lying farthest below the chord from the first
// to the last sample (docs/sweeps.md, Knee). None for fewer than 3 samples, or when
// no sample lies more than `min_distance` (normalised units) below the chord: a
// straight line, or a curve bending the other way, has no knee.
std::optional<std::size_t> kneedle(const std::vector<double>& x, const std::vector<double>& y,
                                   double min_distance = 0.01);

}  // namespace tokenscope::analysis
