#include "pareto_frontier.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace tokenscope::analysis {

std::vector<std::size_t> pareto_frontier(const std::vector<double>& x,
                                         const std::vector<double>& y) {
    if (x.size() != y.size())
        throw std::invalid_argument("pareto_frontier: x and y differ in size");
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!std::isnan(x[i]) && !std::isnan(y[i])) order.push_back(i);
    // By x descending, then y ascending: a point is dominated exactly when some point
    // before it has y below it, or the same y with a larger x.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (x[a] != x[b]) return x[a] > x[b];
        if (y[a] != y[b]) return y[a] < y[b];
        return a < b;
    });
    std::vector<std::size_t> out;
    double best_y = INFINITY;  // lowest y among points with a strictly larger x
    std::size_t i = 0;
    while (i < order.size()) {
        std::size_t j = i;
        while (j < order.size() && x[order[j]] == x[order[i]]) ++j;
        // Within one x, only the lowest y (and its ties) survive.
        const double group_min = y[order[i]];
        for (std::size_t k = i; k < j && y[order[k]] == group_min; ++k)
            if (group_min < best_y) out.push_back(order[k]);
        best_y = std::min(best_y, group_min);
        i = j;
    }
    std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
        if (x[a] != x[b]) return x[a] < x[b];
        if (y[a] != y[b]) return y[a] < y[b];
        return a < b;
    });
    return out;
}

}  // namespace tokenscope::analysis
