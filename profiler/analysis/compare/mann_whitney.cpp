#include "mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace tokenscope::analysis {
namespace {

struct RankSums {
    double r1 = 0;        // sum of ranks of sample a in the pooled sample
    double tie_term = 0;  // sum of (t^3 - t) over groups of t tied values
    bool has_ties = false;
};

RankSums rank_sums(std::span<const double> a, std::span<const double> b) {
    // (value, from_a); sorting pairs keeps equal values adjacent whatever their origin.
    std::vector<std::pair<double, bool>> pooled;
    pooled.reserve(a.size() + b.size());
    for (double x : a) pooled.emplace_back(x, true);
    for (double y : b) pooled.emplace_back(y, false);
    std::sort(pooled.begin(), pooled.end(),
              [](const auto& l, const auto& r) { return l.first < r.first; });
    RankSums out;
    for (std::size_t i = 0; i < pooled.size();) {
        std::size_t j = i + 1;
        while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
        // Ranks are 1-based: the group i..j-1 shares the mean of ranks i+1..j.
        double avg_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
        auto t = static_cast<double>(j - i);
        if (t > 1) {
            out.has_ties = true;
            out.tie_term += t * t * t - t;
        }
        for (std::size_t k = i; k < j; ++k)
            if (pooled[k].second) out.r1 += avg_rank;
        i = j;
    }
    return out;
}

}  // namespace

double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, double u) {
    if (u < 0) return 0.0;
    const std::size_t max_u = n1 * n2;
    if (u >= static_cast<double>(max_u)) return 1.0;
    // counts[m][k]: arrangements of m values of a among (m + n) pooled values
    // with U = k, built column by column over n = 0..n2 with
    // f(m, n, k) = f(m - 1, n, k - n) + f(m, n - 1, k)  (largest value from a or from b).
    std::vector<std::vector<double>> prev(n1 + 1), cur(n1 + 1);
    for (std::size_t m = 0; m <= n1; ++m) prev[m] = {1.0};  // n = 0: only U = 0
    for (std::size_t n = 1; n <= n2; ++n) {
        cur[0] = {1.0};
        for (std::size_t m = 1; m <= n1; ++m) {
            std::vector<double> row(m * n + 1, 0.0);
            for (std::size_t k = 0; k < prev[m].size(); ++k) row[k] += prev[m][k];
            for (std::size_t k = 0; k < cur[m - 1].size(); ++k) row[k + n] += cur[m - 1][k];
            cur[m] = std::move(row);
        }
        std::swap(prev, cur);
    }
    const std::vector<double>& dist = prev[n1];
    const double total = std::accumulate(dist.begin(), dist.end(), 0.0);
    double below = 0;
    for (std::size_t k = 0; k < dist.size() && static_cast<double>(k) <= u; ++k) below += dist[k];
    return below / total;
}

MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b) {
    MannWhitneyResult res;
    res.n1 = a.size();
    res.n2 = b.size();
    if (a.empty() || b.empty()) {
        res.p_value = std::numeric_limits<double>::quiet_NaN();
        return res;
    }
    const auto n1 = static_cast<double>(res.n1);
    const auto n2 = static_cast<double>(res.n2);
    const RankSums sums = rank_sums(a, b);
    res.u1 = sums.r1 - n1 * (n1 + 1) / 2.0;
    res.u2 = n1 * n2 - res.u1;
    if (res.n1 <= kExactLimit && res.n2 <= kExactLimit && !sums.has_ties) {
        res.exact = true;
        // The null distribution is symmetric, so the two tails are equal.
        res.p_value =
            std::min(1.0, 2.0 * mann_whitney_exact_cdf(res.n1, res.n2, std::min(res.u1, res.u2)));
        return res;
    }
    const double n = n1 + n2;
    const double mu = n1 * n2 / 2.0;
    const double var = n1 * n2 / 12.0 * ((n + 1) - sums.tie_term / (n * (n - 1)));
    if (var <= 0) {  // every value tied: no evidence of a difference
        res.p_value = 1.0;
        return res;
    }
    res.z = std::max(0.0, std::abs(res.u1 - mu) - 0.5) / std::sqrt(var);
    res.p_value = std::min(1.0, std::erfc(res.z / std::sqrt(2.0)));
    return res;
}

}  // namespace tokenscope::analysis
