#pragma once

#include <cstdint>

#include "decode_schedule.h"
#include "device_buffer.h"
#include "device_ops.h"

namespace tokenscope::kernels::cuda {

// Everything a run writes on the device besides the weights, sized once for the
// largest pass of the configuration: activations, logits, the KV cache (twice for beam
// search, which gathers into the spare copy), token ids and the sampler outputs.
class DeviceWorkspace {
  public:
    explicit DeviceWorkspace(const DecodeSchedule& schedule);

    // Layer l's K or V plane of the current cache: [sequence][kv_head][capacity][dim].
    void* k_cache(std::int32_t layer) const { return plane(kv_[current_], 2 * layer); }
    void* v_cache(std::int32_t layer) const { return plane(kv_[current_], 2 * layer + 1); }
    void* cache() const { return kv_[current_].get(); }
    void* spare_cache() const { return kv_[1 - current_].get(); }
    void swap_caches() { current_ = 1 - current_; }

    // Sampler outputs alternate so a beam step reads the previous step's scores while
    // writing its own.
    GemvScratch gemv_scratch() const {
        return {gemv_partials.as<float>(), gemv_counters.as<unsigned int>()};
    }
    std::int32_t* sampler_out(std::int32_t iteration) const {
        return sampler_[iteration % 2].as<std::int32_t>();
    }
    std::int64_t id_slots() const { return id_slots_; }
    // A replayed decode graph's step state, {cached, iteration} as int32, right after the
    // ids (16-byte aligned) so that the iteration's one upload carries both.
    std::size_t step_state_offset() const { return step_offset_; }
    std::int32_t* step_cached() const {
        return reinterpret_cast<std::int32_t*>(ids.as<char>() + step_offset_);
    }
    std::int32_t* step_iteration() const { return step_cached() + 1; }
    static constexpr std::size_t kStepStateBytes = 16;

    DeviceBuffer x, xn, qkv, q, attn, gate_up, act, head_in, logits;
    DeviceBuffer prompt_ids, ids;                   // int32
    DeviceBuffer attn_partials, attn_counters;      // split attention scratch
    DeviceBuffer gemv_partials, gemv_counters;      // split-k decode GEMV scratch
    DeviceBuffer topk_values, topk_ids, beam_lse;   // sampler scratch
    DeviceBuffer argmax_partials, argmax_counters;  // split greedy argmax scratch
    DeviceBuffer beam_initial_scores;               // 0 for beam 0, -inf for the others
    std::int64_t capacity = 0;                      // KV positions per sequence

  private:
    void* plane(const DeviceBuffer& cache, std::int64_t index) const {
        return cache.as<char>() + index * plane_bytes_;
    }

    DeviceBuffer kv_[2];
    DeviceBuffer sampler_[2];
    int current_ = 0;
    std::int64_t plane_bytes_ = 0;
    std::int64_t id_slots_ = 1;
    std::size_t step_offset_ = 0;
};

}  // namespace tokenscope::kernels::cuda
