#include "capture/serving/arrival_process.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace tokenscope::capture {
namespace {

constexpr std::uint64_t kArrivalStream = 0xa7712a1500000000ull;

}  // namespace

const char* to_string(ArrivalKind kind) {
    switch (kind) {
        case ArrivalKind::Gamma:
            return "gamma";
        case ArrivalKind::Closed:
            return "closed";
        case ArrivalKind::Poisson:
            break;
    }
    return "poisson";
}

const char* to_string(AdmissionPolicy policy) {
    switch (policy) {
        case AdmissionPolicy::StaticShare:
            return "static";
        case AdmissionPolicy::DynamicBudget:
            return "dynamic";
        case AdmissionPolicy::Fcfs:
            break;
    }
    return "fcfs";
}

ArrivalProcess::ArrivalProcess(const ArrivalSpec& spec, std::uint64_t seed)
    : spec_(spec), rng_(seed ^ kArrivalStream) {
    if (spec_.kind != ArrivalKind::Closed && !(spec_.rate > 0.0))
        throw std::invalid_argument("arrival rate must be > 0");
    if (spec_.kind == ArrivalKind::Gamma && !(spec_.burstiness > 0.0))
        throw std::invalid_argument("burstiness must be > 0");
}

std::int64_t ArrivalProcess::next_gap_ns() {
    const double mean_s = 1.0 / spec_.rate;
    double gap_s = 0.0;
    if (spec_.kind == ArrivalKind::Gamma) {
        const double shape = 1.0 / spec_.burstiness;
        gap_s = gamma(shape) * mean_s / shape;  // scale = mean / shape
    } else {
        gap_s = rng_.exponential(mean_s);
    }
    return std::max<std::int64_t>(1, std::llround(gap_s * 1e9));
}

double ArrivalProcess::normal() {
    // Box-Muller; 1 - u is in (0, 1], so the log is finite.
    const double u1 = 1.0 - rng_.uniform();
    const double u2 = rng_.uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Marsaglia and Tsang (2000); shapes below 1 through the boost G(a) = G(a + 1) U^(1/a).
double ArrivalProcess::gamma(double shape) {
    if (shape < 1.0) {
        const double u = 1.0 - rng_.uniform();
        return gamma(shape + 1.0) * std::pow(u, 1.0 / shape);
    }
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    while (true) {
        double x = normal();
        double v = 1.0 + c * x;
        if (v <= 0.0) continue;
        v = v * v * v;
        const double u = 1.0 - rng_.uniform();
        if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
    }
}

}  // namespace tokenscope::capture
