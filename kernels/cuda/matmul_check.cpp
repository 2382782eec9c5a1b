#include "matmul_check.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>

#include "cuda_check.h"
#include "device_buffer.h"
#include "device_ops.h"
#include "matmul_engine.h"

namespace tokenscope::kernels::cuda {
namespace {

// Deterministic multiples of 1/16 in [-0.5, 0.5].
float value_at(std::uint64_t i, std::uint64_t salt) {
    std::uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ salt;
    x ^= x >> 29;
    return static_cast<float>(static_cast<int>(x % 17) - 8) / 16.0f;
}

std::vector<std::uint8_t> encode(DType dtype, const std::vector<float>& v) {
    const std::size_t b = bytes_per_element(dtype);
    std::vector<std::uint8_t> out(v.size() * b);
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (dtype == DType::Fp32) {
            std::memcpy(&out[i * b], &v[i], b);
        } else if (dtype == DType::Fp16) {
            const __half h = __float2half_rn(v[i]);
            std::memcpy(&out[i * b], &h, b);
        } else {
            const __nv_bfloat16 h = __float2bfloat16_rn(v[i]);
            std::memcpy(&out[i * b], &h, b);
        }
    }
    return out;
}

float decode_one(DType dtype, const std::uint8_t* p) {
    if (dtype == DType::Fp32) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    if (dtype == DType::Fp16) {
        __half h;
        std::memcpy(&h, p, 2);
        return __half2float(h);
    }
    __nv_bfloat16 h;
    std::memcpy(&h, p, 2);
    return __bfloat162float(h);
}

// One unit in the last place of a normal 16-bit value of magnitude |v|.
double ulp_of(DType dtype, double v) {
    const int mantissa = dtype == DType::Fp16 ? 10 : 7;
    if (v == 0.0) return std::ldexp(1.0, -14 - mantissa);
    return std::ldexp(1.0, std::ilogb(std::abs(v)) - mantissa);
}

DeviceBuffer upload(const std::vector<std::uint8_t>& bytes, const char* what) {
    DeviceBuffer d(bytes.size(), what);
    check_cuda(cudaMemcpy(d.get(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice), what);
    return d;
}

std::string kernel_of(const MatmulCase& c) {
    if (c.m > kMaxGemvRows) return "tiled GEMM";
    const bool pack = c.n % 8 == 0;
    const std::string splits = std::to_string(gemv_splits(c.k, c.n));
    return pack ? "GEMV, 16-byte loads, " + splits + " k-splits" : "GEMV, scalar loads";
}

}  // namespace

std::vector<MatmulCase> default_matmul_cases() {
    return {{8, 8192, 2048, true, false},   // mlp_down: split k, residual, 16-bit out
            {8, 2048, 3072, false, true},   // qkv: split k
            {5, 4096, 4096, true, true},    // fewer rows than the tile holds
            {8, 2048, 32000, false, true},  // wide, like an LM head: 2 splits
            {3, 300, 1001, true, true},     // n not a multiple of 8: scalar loads
            {64, 512, 640, true, false},    // prefill GEMM, residual in place
            {100, 333, 130, false, true}};  // ragged GEMM edges
}

MatmulCheck check_matmul(DType dtype, const MatmulCase& c, MatmulEngine* engine) {
    std::vector<float> x(static_cast<std::size_t>(c.m * c.k)),
        w(static_cast<std::size_t>(c.k * c.n));
    std::vector<float> r(static_cast<std::size_t>(c.m * c.n));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = value_at(i, 1);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = value_at(i, 2);
    for (std::size_t i = 0; i < r.size(); ++i) r[i] = value_at(i, 3);
    const DType out_type = c.fp32_out ? DType::Fp32 : dtype;
    DeviceBuffer dx = upload(encode(dtype, x), "matmul check x");
    DeviceBuffer dw = upload(encode(dtype, w), "matmul check w");
    DeviceBuffer dy = upload(encode(out_type, r), "matmul check y");  // y is the residual
    DeviceBuffer partials(
        static_cast<std::size_t>(std::max<std::int64_t>(1, gemv_partial_floats(c.k, c.n))) * 4,
        "matmul check partials");
    DeviceBuffer counters(static_cast<std::size_t>((c.n + 31) / 32) * 4, "matmul check counters");
    const GemvScratch scratch{partials.as<float>(), counters.as<unsigned int>()};
    MatmulCheck result{c, 0, 0, 0.0, kernel_of(c)};
    if (engine != nullptr) {
        const MatmulCall call{dtype,    dx.get(),   dw.get(),
                              dy.get(), c.fp32_out, c.residual ? dy.get() : nullptr,
                              c.m,      c.k,        c.n};
        engine->prepare(call);
        const int kernels = engine->run(call, scratch, nullptr);
        result.kernel = engine->uses_library()
                            ? "cuBLASLt, " + std::to_string(kernels) + " kernel(s)"
                            : result.kernel;
    } else {
        launch_matmul(dtype, dx.get(), dw.get(), dy.get(), c.fp32_out,
                      c.residual ? dy.get() : nullptr, c.m, c.k, c.n, scratch, nullptr);
    }
    check_cuda(cudaGetLastError(), "matmul check launch");
    check_cuda(cudaDeviceSynchronize(), "matmul check");
    std::vector<std::uint8_t> out(dy.bytes());
    check_cuda(cudaMemcpy(out.data(), dy.get(), out.size(), cudaMemcpyDeviceToHost),
               "matmul check download");

    const std::size_t ob = bytes_per_element(out_type);
    // Only the library's fused residual may round twice (see matmul_check.h).
    const bool twice_ok =
        engine != nullptr && engine->uses_library() && c.residual && out_type != DType::Fp32;
    for (std::int64_t i = 0; i < c.m; ++i) {
        for (std::int64_t j = 0; j < c.n; ++j) {
            double product = 0.0;
            for (std::int64_t q = 0; q < c.k; ++q)
                product += static_cast<double>(x[static_cast<std::size_t>(i * c.k + q)]) *
                           w[static_cast<std::size_t>(q * c.n + j)];
            const double want =
                product + (c.residual ? r[static_cast<std::size_t>(i * c.n + j)] : 0.0);
            const auto at = static_cast<std::size_t>(i * c.n + j);
            const double got = decode_one(out_type, &out[at * ob]);
            // Exact in fp32; a 16-bit output is the exact value rounded once.
            const double rounded =
                decode_one(out_type, encode(out_type, {static_cast<float>(want)}).data());
            const double err = std::abs(got - rounded);
            result.max_abs_error = std::max(result.max_abs_error, std::abs(got - want));
            if (err == 0.0) continue;
            const double tolerance =
                twice_ok ? ulp_of(out_type, std::max(std::abs(product), std::abs(want))) : 0.0;
            if (err <= tolerance)
                ++result.rounded_twice;
            else
                ++result.mismatches;
        }
    }
    return result;
}

}  // namespace tokenscope::kernels::cuda
