#pragma once

#include <cstdint>
#include <vector>

namespace tokenscope::kernels::cpu {

// Rotary embedding angles (Llama / Hugging Face "rotate half" convention): element i
// of the first half of a head pairs with element i + head_dim/2, rotated by
// pos * base^(-2i/head_dim). Angles are computed in double once, so a kernel only
// does the 4 multiplies and 2 adds per pair that the work counts bill.
class RopeTable {
  public:
    RopeTable(std::int64_t head_dim, std::int64_t positions, double base = 10000.0);

    std::int64_t head_dim() const { return head_dim_; }
    std::int64_t positions() const { return positions_; }
    const float* cos(std::int64_t pos) const { return cos_.data() + pos * (head_dim_ / 2); }
    const float* sin(std::int64_t pos) const { return sin_.data() + pos * (head_dim_ / 2); }

  private:
    std::int64_t head_dim_;
    std::int64_t positions_;
    std::vector<float> cos_;  // [positions][head_dim / 2]
    std::vector<float> sin_;
};

}  // namespace tokenscope::kernels::cpu
