#include "kv_cache.h"

#include <algorithm>

namespace tokenscope::kernels::cpu {

KvCache::KvCache(std::int64_t layers, std::int64_t sequences, std::int64_t kv_heads,
                 std::int64_t head_dim, std::int64_t capacity)
    : sequences_(sequences),
      kv_heads_(kv_heads),
      head_dim_(head_dim),
      capacity_(capacity),
      k_(static_cast<std::size_t>(layers * sequences * kv_heads * capacity * head_dim)),
      v_(k_.size()) {}

void KvCache::reorder(const std::vector<std::int32_t>& parents, std::int64_t layers,
                      std::int64_t positions, WorkMeter& meter) {
    const auto block = static_cast<std::size_t>(positions * head_dim_);
    // Gather through a copy of one layer: a beam may be the parent of several and
    // also be overwritten itself.
    std::vector<float> old_k, old_v;
    for (std::int64_t l = 0; l < layers; ++l) {
        const auto layer_begin = offset(l, 0, 0);
        const auto layer_size = offset(l + 1, 0, 0) - layer_begin;
        old_k.assign(k_.begin() + static_cast<std::ptrdiff_t>(layer_begin),
                     k_.begin() + static_cast<std::ptrdiff_t>(layer_begin + layer_size));
        old_v.assign(v_.begin() + static_cast<std::ptrdiff_t>(layer_begin),
                     v_.begin() + static_cast<std::ptrdiff_t>(layer_begin + layer_size));
        for (std::int64_t s = 0; s < sequences_; ++s) {
            const std::int64_t from = parents[static_cast<std::size_t>(s)];
            for (std::int64_t h = 0; h < kv_heads_; ++h) {
                const auto src = offset(l, from, h) - layer_begin;
                const auto dst = offset(l, s, h);
                std::copy_n(old_k.begin() + static_cast<std::ptrdiff_t>(src), block,
                            k_.begin() + static_cast<std::ptrdiff_t>(dst));
                std::copy_n(old_v.begin() + static_cast<std::ptrdiff_t>(src), block,
                            v_.begin() + static_cast<std::ptrdiff_t>(dst));
                meter.read(2 * block);
                meter.write(2 * block);
            }
        }
    }
}

}  // namespace tokenscope::kernels::cpu
