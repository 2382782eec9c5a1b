#pragma once

#include <cstddef>
#include <vector>

namespace tokenscope::analysis {

// Indices of the points no other point dominates, where q dominates p when
// q.x >= p.x and q.y <= p.y with one of them strict (more throughput, less
// latency). Equal points do not dominate each other, so ties all stay on the
// frontier. NaN coordinates are never on it. Sorted by x, then y, then index.
std::vector<std::size_t> pareto_frontier(const std::vector<double>& x,
                                         const std::vector<double>& y);

}  // namespace tokenscope::analysis
