#pragma once

#include <cstddef>
#include <vector>

namespace tokenscope::analysis {

// y = a * x^b + c fitted by least squares (docs/sweeps.md, Pareto frontier and fit) with GSL's
// trust-region nonlinear least squares (gsl_multifit_nlinear, Levenberg-Marquardt).
// r2 = 1 - SS_res / SS_tot. ok is false (and the rest meaningless) with fewer than
// 4 points, a non-positive x, constant y, or when GSL does not converge.
struct PowerLawFit {
    double a = 0.0, b = 0.0, c = 0.0;
    double r2 = 0.0;
    bool ok = false;
    std::size_t iterations = 0;

    double operator()(double x) const;
};

PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y);
// 1 - SS_res / SS_tot of a model's predictions; NaN when y is constant.
double r_squared(const std::vector<double>& y, const std::vector<double>& predicted);

}  // namespace tokenscope::analysis
