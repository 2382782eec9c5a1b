#include "ops.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tokenscope::kernels::cpu {
namespace {

using u64 = std::uint64_t;

// A block of rows shares each streamed weight row; a tile of columns keeps the
// accumulators in L1. Neither changes any row's summation order.
constexpr std::int64_t kRowBlock = 4;
constexpr std::int64_t kColTile = 512;

u64 u(std::int64_t v) {
    return static_cast<u64>(v);
}

// acc[r][0..cols) = sum over i of x[r][i] * w[i][c0 + ..], i ascending.
void accumulate_tile(const float* __restrict x, const float* __restrict w, std::int64_t rows,
                     std::int64_t in, std::int64_t out, std::int64_t c0, std::int64_t cols,
                     float (*__restrict acc)[kColTile], WorkMeter& meter) {
    for (std::int64_t r = 0; r < rows; ++r) std::fill_n(acc[r], cols, 0.0f);
    for (std::int64_t i = 0; i < in; ++i) {
        const float* __restrict wr = w + i * out + c0;
        for (std::int64_t r = 0; r < rows; ++r) {
            const float a = x[r * in + i];
            float* __restrict ar = acc[r];
            for (std::int64_t o = 0; o < cols; ++o) ar[o] += a * wr[o];
        }
        meter.flops(2 * u(rows) * u(cols));
    }
}

}  // namespace

float dot(const float* a, const float* b, std::int64_t n) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    std::int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i) s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

void rms_norm(const float* x, const float* w, float* y, std::int64_t rows, std::int64_t n,
              WorkMeter& meter) {
    meter.read(u(n));  // the weight vector, once for all rows
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * n;
        float* yr = y + r * n;
        float sum = 0.0f;
        for (std::int64_t i = 0; i < n; ++i) sum += xr[i] * xr[i];
        const float inv = 1.0f / std::sqrt(sum / static_cast<float>(n) + kRmsEps);
        for (std::int64_t i = 0; i < n; ++i) yr[i] = xr[i] * inv * w[i];
        meter.flops(4 * u(n));  // square, sum; scale, weight
        meter.read(u(n));
        meter.write(u(n));
    }
}

void matmul(const float* x, const float* w, float* y, std::int64_t rows, std::int64_t in,
            std::int64_t out, Epilogue epilogue, WorkMeter& meter) {
    alignas(64) float acc[kRowBlock][kColTile];
    meter.read(u(in) * u(out));  // every weight once
    for (std::int64_t r0 = 0; r0 < rows; r0 += kRowBlock) {
        const std::int64_t rb = std::min(kRowBlock, rows - r0);
        for (std::int64_t c0 = 0; c0 < out; c0 += kColTile) {
            const std::int64_t cols = std::min(kColTile, out - c0);
            accumulate_tile(x + r0 * in, w, rb, in, out, c0, cols, acc, meter);
            for (std::int64_t r = 0; r < rb; ++r) {
                float* yr = y + (r0 + r) * out + c0;
                if (epilogue == Epilogue::AddResidual) {
                    for (std::int64_t o = 0; o < cols; ++o) yr[o] += acc[r][o];
                    meter.flops(u(cols));
                    meter.read(u(cols));
                } else {
                    std::copy_n(acc[r], cols, yr);
                }
                if (epilogue == Epilogue::StoreLogits)
                    meter.write_word(u(cols));
                else
                    meter.write(u(cols));
            }
        }
        meter.read(u(rb) * u(in));
    }
}

void rope(float* heads_data, std::int64_t heads, std::int64_t pos, const RopeTable& table,
          WorkMeter& meter) {
    const std::int64_t d = table.head_dim();
    const std::int64_t half = d / 2;
    const float* c = table.cos(pos);
    const float* s = table.sin(pos);
    for (std::int64_t h = 0; h < heads; ++h) {
        float* v = heads_data + h * d;
        for (std::int64_t i = 0; i < half; ++i) {
            const float a = v[i];
            const float b = v[i + half];
            v[i] = a * c[i] - b * s[i];
            v[i + half] = b * c[i] + a * s[i];
        }
        meter.flops(6 * u(half));  // 4 mul + 2 add per pair: 3 per rotated element
    }
}

void attend(const float* q, const float* keys, const float* values, std::int64_t count,
            std::int64_t d, float* out, float* scores, WorkMeter& meter) {
    const float scale = 1.0f / std::sqrt(static_cast<float>(d));
    float top = -std::numeric_limits<float>::infinity();
    for (std::int64_t k = 0; k < count; ++k) {
        scores[k] = dot(q, keys + k * d, d) * scale;
        top = std::max(top, scores[k]);
    }
    float sum = 0.0f;
    for (std::int64_t k = 0; k < count; ++k) {
        scores[k] = std::exp(scores[k] - top);
        sum += scores[k];
    }
    const float inv = 1.0f / sum;
    std::fill_n(out, d, 0.0f);
    for (std::int64_t k = 0; k < count; ++k) {
        const float p = scores[k] * inv;
        const float* vk = values + k * d;
        for (std::int64_t i = 0; i < d; ++i) out[i] += p * vk[i];
    }
    meter.flops(4 * u(d) * u(count));  // QK^T and PV: 2d each per pair
}

void silu_mul(const float* gate_up, float* out, std::int64_t rows, std::int64_t ffn,
              WorkMeter& meter) {
    for (std::int64_t r = 0; r < rows; ++r) {
        const float* g = gate_up + r * 2 * ffn;
        const float* up = g + ffn;
        float* o = out + r * ffn;
        for (std::int64_t i = 0; i < ffn; ++i) o[i] = g[i] / (1.0f + std::exp(-g[i])) * up[i];
        meter.flops(5 * u(ffn));  // negate, exp, add, divide, multiply
        meter.read(2 * u(ffn));
        meter.write(u(ffn));
    }
}

}  // namespace tokenscope::kernels::cpu
