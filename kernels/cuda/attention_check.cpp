#include "attention_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention_plan.h"
#include "cuda_check.h"
#include "device_buffer.h"
#include "device_ops.h"

namespace tokenscope::kernels::cuda {
namespace {

// Deterministic values in [-1, 1] in steps of 1/64 (exact in fp16 and bf16), varied
// enough that the softmax is far from uniform.
float attention_value(std::uint64_t i, std::uint64_t salt) {
    std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ salt;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    return static_cast<float>(static_cast<int>(x % 129) - 64) / 64.0f;
}

std::vector<std::uint16_t> encode16(DType dtype, const std::vector<float>& v) {
    std::vector<std::uint16_t> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (dtype == DType::Fp16) {
            const __half h = __float2half_rn(v[i]);
            std::memcpy(&out[i], &h, 2);
        } else {
            const __nv_bfloat16 h = __float2bfloat16_rn(v[i]);
            std::memcpy(&out[i], &h, 2);
        }
    }
    return out;
}

float decode16(DType dtype, std::uint16_t bits) {
    if (dtype == DType::Fp16) {
        __half_raw raw;
        raw.x = bits;
        return __half2float(__half(raw));
    }
    __nv_bfloat16_raw raw;
    raw.x = bits;
    return __bfloat162float(__nv_bfloat16(raw));
}

std::vector<float> filled(std::size_t n, std::uint64_t salt) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = attention_value(i, salt);
    return v;
}

DeviceBuffer upload(const std::vector<std::uint16_t>& v, const char* what) {
    DeviceBuffer d(v.size() * 2, what);
    check_cuda(cudaMemcpy(d.get(), v.data(), v.size() * 2, cudaMemcpyHostToDevice), what);
    return d;
}

std::string kernel_of(DType dtype, const AttentionCase& c) {
    if (prefill_attention_tensor_cores(dtype, c.positions, c.head_dim)) return "tensor cores";
    if (decode_attention_vectorised(dtype, c.positions, c.heads, c.kv_heads, c.head_dim))
        return "split-KV decode";
    return "general";
}

// Row (s, j, h) of the output in double, causal over cached + j + 1 keys.
std::vector<double> reference(const AttentionCase& c, std::int64_t capacity,
                              const std::vector<float>& q, const std::vector<float>& k,
                              const std::vector<float>& v, std::int64_t s, std::int64_t j,
                              std::int64_t h) {
    const std::int64_t d = c.head_dim, kvh = h / (c.heads / c.kv_heads);
    const std::int64_t keys = c.cached + j + 1;
    const float* qr = &q[static_cast<std::size_t>(((s * c.positions + j) * c.heads + h) * d)];
    const float* kr = &k[static_cast<std::size_t>((s * c.kv_heads + kvh) * capacity * d)];
    const float* vr = &v[static_cast<std::size_t>((s * c.kv_heads + kvh) * capacity * d)];
    std::vector<double> score(static_cast<std::size_t>(keys));
    double big = -INFINITY;
    for (std::int64_t t = 0; t < keys; ++t) {
        double dot = 0;
        for (std::int64_t i = 0; i < d; ++i) dot += static_cast<double>(qr[i]) * kr[t * d + i];
        score[static_cast<std::size_t>(t)] = dot / std::sqrt(static_cast<double>(d));
        big = std::max(big, score[static_cast<std::size_t>(t)]);
    }
    double l = 0;
    std::vector<double> o(static_cast<std::size_t>(d), 0.0);
    for (std::int64_t t = 0; t < keys; ++t) {
        const double p = std::exp(score[static_cast<std::size_t>(t)] - big);
        l += p;
        for (std::int64_t e = 0; e < d; ++e) o[static_cast<std::size_t>(e)] += p * vr[t * d + e];
    }
    for (double& x : o) x /= l;
    return o;
}

}  // namespace

std::vector<AttentionCase> default_attention_cases() {
    return {{2, 300, 0, 8, 2, 64},    // prefill: four full query tiles and a partial one
            {1, 130, 70, 4, 4, 128},  // a cached prefix, no grouping, head_dim 128
            {2, 5, 40, 8, 2, 64},     // verification: five queries after 40 keys
            {2, 1, 200, 8, 2, 128}};  // decode
}

AttentionCheck check_attention(DType dtype, const AttentionCase& c) {
    const std::int64_t capacity = c.cached + c.positions;
    const auto cache_n = static_cast<std::size_t>(c.sequences * c.kv_heads * capacity * c.head_dim);
    const auto q_n = static_cast<std::size_t>(c.sequences * c.positions * c.heads * c.head_dim);
    const auto qb = encode16(dtype, filled(q_n, 11)), kb = encode16(dtype, filled(cache_n, 12)),
               vb = encode16(dtype, filled(cache_n, 13));
    DeviceBuffer dq = upload(qb, "attention check q"), dk = upload(kb, "attention check k"),
                 dv = upload(vb, "attention check v");
    DeviceBuffer dout(q_n * 2, "attention check out");
    AttentionShape sh;
    sh.sequences = c.sequences;
    sh.positions = c.positions;
    sh.cached = c.cached;
    sh.heads = c.heads;
    sh.kv_heads = c.kv_heads;
    sh.head_dim = c.head_dim;
    sh.capacity = capacity;
    int device = 0, sms = 1;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    check_cuda(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
    const int splits = attention_splits(sh, dtype, sms);
    DeviceBuffer partials(q_n / static_cast<std::size_t>(c.head_dim) *
                              static_cast<std::size_t>(splits * (c.head_dim + 2)) * 4,
                          "attention check partials");
    DeviceBuffer counters(q_n / static_cast<std::size_t>(c.head_dim) * 4, "attention counters");
    launch_attention(dtype, dq.get(), dk.get(), dv.get(), dout.get(), sh, splits,
                     partials.as<float>(), counters.as<unsigned int>(), nullptr);
    check_cuda(cudaGetLastError(), "attention check launch");
    check_cuda(cudaDeviceSynchronize(), "attention check");
    std::vector<std::uint16_t> out(q_n);
    check_cuda(cudaMemcpy(out.data(), dout.get(), q_n * 2, cudaMemcpyDeviceToHost),
               "attention check download");

    std::vector<float> q(q_n), k(cache_n), v(cache_n);  // the inputs as the GPU sees them
    for (std::size_t i = 0; i < q_n; ++i) q[i] = decode16(dtype, qb[i]);
    for (std::size_t i = 0; i < cache_n; ++i) {
        k[i] = decode16(dtype, kb[i]);
        v[i] = decode16(dtype, vb[i]);
    }
    AttentionCheck r{c, 0.0, 0.0, kernel_of(dtype, c)};
    // Outputs lie in [-1, 1]: the output's own rounding (half an ulp, 2^-9 in bf16 and
    // 2^-12 in fp16 near 1) with room for fp32 sums. P enters PV in two 16-bit parts, so
    // its rounding (2^-17 in bf16) adds almost nothing.
    r.tolerance = dtype == DType::Fp16 ? 5e-4 : 4e-3;
    for (std::int64_t s = 0; s < c.sequences; ++s)
        for (std::int64_t j = 0; j < c.positions; ++j)
            for (std::int64_t h = 0; h < c.heads; ++h) {
                const std::vector<double> want = reference(c, capacity, q, k, v, s, j, h);
                const auto row =
                    static_cast<std::size_t>(((s * c.positions + j) * c.heads + h) * c.head_dim);
                for (std::size_t e = 0; e < want.size(); ++e) {
                    const double got = decode16(dtype, out[row + e]);
                    const double err = std::isfinite(got) ? std::abs(got - want[e]) : INFINITY;
                    r.max_abs_error = std::max(r.max_abs_error, err);
                }
            }
    return r;
}

}  // namespace tokenscope::kernels::cuda
