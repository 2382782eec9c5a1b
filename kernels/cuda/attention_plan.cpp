#include "attention_plan.h"

#include <algorithm>

namespace tokenscope::kernels::cuda {

int decode_attention_splits(std::int64_t sequences, std::int64_t kv_heads, std::int64_t keys,
                            int sm_count) {
    const std::int64_t pairs = std::max<std::int64_t>(1, sequences * kv_heads);
    const std::int64_t target = 2 * std::max(1, sm_count);
    std::int64_t splits = (target + pairs - 1) / pairs;
    splits = std::min(splits, (keys + kMinKeysPerSplit - 1) / kMinKeysPerSplit);
    return static_cast<int>(std::clamp<std::int64_t>(splits, 1, kMaxAttentionSplits));
}

bool decode_attention_vectorised(DType dtype, std::int64_t positions, std::int64_t heads,
                                 std::int64_t kv_heads, std::int64_t head_dim) {
    if (positions != 1 || dtype == DType::Fp32) return false;
    if (head_dim % 8 != 0 || head_dim < 32 || head_dim > 256) return false;
    // Lanes per key (head_dim / 8) must be a power of two for the shuffles.
    const std::int64_t lanes = head_dim / 8;
    if ((lanes & (lanes - 1)) != 0) return false;
    return kv_heads > 0 && heads % kv_heads == 0 && heads / kv_heads <= kMaxDecodeGroup;
}

bool prefill_attention_tensor_cores(DType dtype, std::int64_t positions, std::int64_t head_dim) {
    return positions > 1 && dtype != DType::Fp32 && (head_dim == 64 || head_dim == 128);
}

int decode_attention_group_slots(std::int64_t group) {
    int slots = 1;
    while (slots < group) slots *= 2;
    return slots;
}

std::int64_t decode_attention_shared_bytes(std::int64_t group, std::int64_t head_dim) {
    const std::int64_t lanes = head_dim / 8;
    const std::int64_t streams = kDecodeAttentionThreads / lanes;
    return streams * group * (head_dim + 2) * 4;
}

}  // namespace tokenscope::kernels::cuda
