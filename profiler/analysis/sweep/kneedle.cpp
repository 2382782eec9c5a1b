#include "kneedle.h"

#include <algorithm>
#include <stdexcept>

namespace tokenscope::analysis {

std::optional<std::size_t> kneedle(const std::vector<double>& x, const std::vector<double>& y,
                                   double min_distance) {
    if (x.size() != y.size()) throw std::invalid_argument("kneedle: x and y differ in size");
    const std::size_t n = x.size();
    if (n < 3) return std::nullopt;
    const auto [lowest, highest] = std::minmax_element(y.begin(), y.end());
    // A plain copy for the lambda below: clang 14 (clang-tidy) cannot capture a binding.
    const double ylo = *lowest;
    const double xr = x.back() - x.front();
    const double yr = *highest - ylo;
    if (!(xr > 0.0) || !(yr > 0.0)) return std::nullopt;
    auto nx = [&](std::size_t i) { return (x[i] - x.front()) / xr; };
    auto ny = [&](std::size_t i) { return (y[i] - ylo) / yr; };
    const double y0 = ny(0), y1 = ny(n - 1);
    std::optional<std::size_t> best;
    double best_d = min_distance;
    for (std::size_t i = 1; i + 1 < n; ++i) {
        // Vertical distance below the chord in the unit square.
        const double chord = y0 + (y1 - y0) * nx(i);
        const double d = chord - ny(i);
        if (d > best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

}  // namespace tokenscope::analysis
