#pragma once

#include <cstdint>
#include <vector>

#include "work_meter.h"

namespace tokenscope::kernels::cpu {

// K and V of every block for every sequence, laid out [layer][sequence][kv_head]
// [position][head_dim] so one head's keys are contiguous for the attention loop.
// The speculative draft shares the target's first blocks (self-speculation): its
// blocks are the target's, so are its cache entries, and the target's verification
// pass rewrites every position the draft wrote.
class KvCache {
  public:
    KvCache(std::int64_t layers, std::int64_t sequences, std::int64_t kv_heads,
            std::int64_t head_dim, std::int64_t capacity);

    std::int64_t capacity() const { return capacity_; }
    std::int64_t sequences() const { return sequences_; }
    float* k(std::int64_t layer, std::int64_t seq, std::int64_t head) {
        return k_.data() + offset(layer, seq, head);
    }
    float* v(std::int64_t layer, std::int64_t seq, std::int64_t head) {
        return v_.data() + offset(layer, seq, head);
    }
    const float* k(std::int64_t layer, std::int64_t seq, std::int64_t head) const {
        return k_.data() + offset(layer, seq, head);
    }
    const float* v(std::int64_t layer, std::int64_t seq, std::int64_t head) const {
        return v_.data() + offset(layer, seq, head);
    }

    // Beam search: sequence s takes the first `positions` entries of sequence
    // parents[s], in blocks 0..layers-1.
    void reorder(const std::vector<std::int32_t>& parents, std::int64_t layers,
                 std::int64_t positions, WorkMeter& meter);

  private:
    std::size_t offset(std::int64_t layer, std::int64_t seq, std::int64_t head) const {
        return static_cast<std::size_t>(((layer * sequences_ + seq) * kv_heads_ + head) *
                                        capacity_ * head_dim_);
    }

    std::int64_t sequences_, kv_heads_, head_dim_, capacity_;
    std::vector<float> k_, v_;
};

}  // namespace tokenscope::kernels::cpu
