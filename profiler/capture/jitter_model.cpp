#include "jitter_model.h"

#include <cmath>
#include <stdexcept>

namespace tokenscope::capture {
namespace {

// A stream apart from the planner's acceptance draws, which use the same seed.
constexpr std::uint64_t kJitterStream = 0x717e5eedc0ffee00ull;

}  // namespace

JitterModel::JitterModel(const JitterParams& params, std::uint64_t seed)
    : params_(params), rng_(seed ^ kJitterStream) {
    if (!(params_.kernel_mean >= 0) || !(params_.api_mean >= 0) ||
        !(params_.hiccup_probability >= 0 && params_.hiccup_probability <= 1) ||
        !(params_.hiccup_mean_ns >= 0))
        throw std::invalid_argument(
            "jitter: means must be >= 0 and the hiccup probability in 0..1");
}

std::int64_t JitterModel::stretch(std::int64_t base_ns, double mean) {
    if (!params_.enabled || mean <= 0) return base_ns;
    const double e = rng_.exponential(mean);
    return base_ns + static_cast<std::int64_t>(std::ceil(static_cast<double>(base_ns) * e));
}

std::int64_t JitterModel::hiccup_position(std::int64_t launches) {
    if (!params_.enabled || launches <= 0 || !rng_.bernoulli(params_.hiccup_probability)) return -1;
    return static_cast<std::int64_t>(rng_.next() % static_cast<std::uint64_t>(launches));
}

std::int64_t JitterModel::hiccup_ns() {
    return static_cast<std::int64_t>(std::ceil(rng_.exponential(params_.hiccup_mean_ns)));
}

}  // namespace tokenscope::capture
