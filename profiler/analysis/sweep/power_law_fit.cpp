#include "power_law_fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

namespace tokenscope::analysis {
namespace {

struct Data {
    const std::vector<double>* x;
    const std::vector<double>* y;
};

int residuals(const gsl_vector* p, void* data, gsl_vector* f) {
    const auto* d = static_cast<const Data*>(data);
    const double a = gsl_vector_get(p, 0), b = gsl_vector_get(p, 1), c = gsl_vector_get(p, 2);
    for (std::size_t i = 0; i < d->x->size(); ++i)
        gsl_vector_set(f, i, a * std::pow((*d->x)[i], b) + c - (*d->y)[i]);
    return GSL_SUCCESS;
}

int jacobian(const gsl_vector* p, void* data, gsl_matrix* J) {
    const auto* d = static_cast<const Data*>(data);
    const double a = gsl_vector_get(p, 0), b = gsl_vector_get(p, 1);
    for (std::size_t i = 0; i < d->x->size(); ++i) {
        const double xi = (*d->x)[i];
        const double xb = std::pow(xi, b);
        gsl_matrix_set(J, i, 0, xb);
        gsl_matrix_set(J, i, 1, a * xb * std::log(xi));
        gsl_matrix_set(J, i, 2, 1.0);
    }
    return GSL_SUCCESS;
}

// A start from the data: c below the smallest y, b from the log-log slope, a to match.
void initial_guess(const std::vector<double>& x, const std::vector<double>& y, double g[3]) {
    const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
    const double c = *lo - 0.01 * (*hi - *lo) - 1e-12;
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const auto n = static_cast<double>(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double lx = std::log(x[i]), ly = std::log(std::max(y[i] - c, 1e-300));
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
    }
    const double denom = n * sxx - sx * sx;
    const double b = denom != 0.0 ? (n * sxy - sx * sy) / denom : 1.0;
    g[0] = std::exp((sy - b * sx) / n);
    g[1] = std::isfinite(b) ? b : 1.0;
    g[2] = c;
}

struct WorkspaceFree {
    void operator()(gsl_multifit_nlinear_workspace* w) const { gsl_multifit_nlinear_free(w); }
};

}  // namespace

double PowerLawFit::operator()(double x) const {
    return a * std::pow(x, b) + c;
}

double r_squared(const std::vector<double>& y, const std::vector<double>& predicted) {
    double mean = 0.0;
    for (double v : y) mean += v;
    mean /= static_cast<double>(y.size());
    double ss_res = 0.0, ss_tot = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i) {
        ss_res += (y[i] - predicted[i]) * (y[i] - predicted[i]);
        ss_tot += (y[i] - mean) * (y[i] - mean);
    }
    return ss_tot > 0.0 ? 1.0 - ss_res / ss_tot : std::numeric_limits<double>::quiet_NaN();
}

PowerLawFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size()) throw std::invalid_argument("fit_power_law: x and y differ in size");
    PowerLawFit fit;
    const std::size_t n = x.size();
    if (n < 4 || std::any_of(x.begin(), x.end(), [](double v) { return !(v > 0.0); })) return fit;
    const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
    if (!(*hi > *lo)) return fit;
    gsl_set_error_handler_off();  // errors come back as status codes, never abort()
    Data data{&x, &y};
    gsl_multifit_nlinear_fdf fdf{};
    fdf.f = residuals;
    fdf.df = jacobian;
    fdf.n = n;
    fdf.p = 3;
    fdf.params = &data;
    gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
    std::unique_ptr<gsl_multifit_nlinear_workspace, WorkspaceFree> w(
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, n, 3));
    double guess[3];
    initial_guess(x, y, guess);
    gsl_vector_view start = gsl_vector_view_array(guess, 3);
    gsl_multifit_nlinear_init(&start.vector, &fdf, w.get());
    int info = 0;
    const int status =
        gsl_multifit_nlinear_driver(500, 1e-10, 1e-10, 0.0, nullptr, nullptr, &info, w.get());
    const gsl_vector* p = gsl_multifit_nlinear_position(w.get());
    fit.a = gsl_vector_get(p, 0);
    fit.b = gsl_vector_get(p, 1);
    fit.c = gsl_vector_get(p, 2);
    fit.iterations = gsl_multifit_nlinear_niter(w.get());
    std::vector<double> predicted(n);
    for (std::size_t i = 0; i < n; ++i) predicted[i] = fit(x[i]);
    fit.r2 = r_squared(y, predicted);
    fit.ok = (status == GSL_SUCCESS || status == GSL_EMAXITER) && std::isfinite(fit.a) &&
             std::isfinite(fit.b) && std::isfinite(fit.c) && std::isfinite(fit.r2);
    return fit;
}

}  // namespace tokenscope::analysis
