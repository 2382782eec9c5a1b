#include "rope_table.h"

#include <cmath>

namespace tokenscope::kernels::cpu {

RopeTable::RopeTable(std::int64_t head_dim, std::int64_t positions, double base)
    : head_dim_(head_dim), positions_(positions) {
    const std::int64_t half = head_dim / 2;
    cos_.resize(static_cast<std::size_t>(positions * half));
    sin_.resize(cos_.size());
    for (std::int64_t p = 0; p < positions; ++p) {
        for (std::int64_t i = 0; i < half; ++i) {
            const double freq =
                std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(head_dim));
            const double angle = static_cast<double>(p) * freq;
            cos_[static_cast<std::size_t>(p * half + i)] = static_cast<float>(std::cos(angle));
            sin_[static_cast<std::size_t>(p * half + i)] = static_cast<float>(std::sin(angle));
        }
    }
}

}  // namespace tokenscope::kernels::cpu
