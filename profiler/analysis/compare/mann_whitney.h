#pragma once

#include <cstddef>
#include <span>

namespace tokenscope::analysis {

// Two-sided Mann-Whitney U test (Wilcoxon rank-sum) of samples a and b.
struct MannWhitneyResult {
    std::size_t n1 = 0, n2 = 0;
    double u1 = 0;       // pairs (x in a, y in b) with x > y, ties counting one half
    double u2 = 0;       // n1 * n2 - u1
    double z = 0;        // normal-approximation statistic; 0 when the exact distribution was used
    double p_value = 1;  // two-sided; NaN when either sample is empty
    bool exact = false;  // true: p from the exact null distribution of U
};

// Average ranks for ties. Exact p (dynamic programming over U counts) when
// n1, n2 <= kExactLimit and no value is tied; otherwise the normal
// approximation with tie and continuity corrections (scipy's "asymptotic").
MannWhitneyResult mann_whitney_u(std::span<const double> a, std::span<const double> b);

inline constexpr std::size_t kExactLimit = 20;

// P(U <= u) under the null hypothesis for sample sizes n1, n2 without ties.
double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, double u);

}  // namespace tokenscope::analysis
