// A small CUDA program for tests/gpu/run.sh to trace through injection
// (tokenscope-cli capture): per step an NVTX range "step N" around two H2D
// copies, kernel launches, a D2H copy and a synchronisation. Built by run.sh with
// nvcc, not by CMake. Usage: vector_add [STEPS (10)] [KERNELS_PER_STEP (8)].
// Prints the median step time, so traced and untraced runs can be compared.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t err_ = (call);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            std::fprintf(stderr, "vector_add: %s: %s\n", #call, cudaGetErrorString(err_)); \
            return 2;                                                                      \
        }                                                                                  \
    } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
    const int steps = argc > 1 ? std::atoi(argv[1]) : 10;
    const int kernels = argc > 2 ? std::atoi(argv[2]) : 8;
    const int n = 1 << 20;
    const size_t bytes = n * sizeof(float);
    std::vector<float> ha(n), hb(n), hc(n);
    for (int i = 0; i < n; ++i) {
        ha[i] = static_cast<float>(i % 1000);
        hb[i] = 0.5f * static_cast<float>(i % 7);
    }
    float *a = nullptr, *b = nullptr, *c = nullptr;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMalloc(&c, bytes));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    std::vector<long long> step_ns;
    for (int s = 0; s < steps; ++s) {
        const std::string name = "step " + std::to_string(s);
        const auto t0 = std::chrono::steady_clock::now();
        nvtxRangePushA(name.c_str());
        CHECK(cudaMemcpyAsync(a, ha.data(), bytes, cudaMemcpyHostToDevice, stream));
        CHECK(cudaMemcpyAsync(b, hb.data(), bytes, cudaMemcpyHostToDevice, stream));
        for (int k = 0; k < kernels; ++k)
            vector_add<<<(n + 255) / 256, 256, 0, stream>>>(a, b, c, n);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpyAsync(hc.data(), c, bytes, cudaMemcpyDeviceToHost, stream));
        CHECK(cudaStreamSynchronize(stream));
        nvtxRangePop();
        step_ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(
                              std::chrono::steady_clock::now() - t0)
                              .count());
    }
    for (int i = 0; i < n; ++i) {
        if (hc[i] != ha[i] + hb[i]) {
            std::fprintf(stderr, "vector_add: wrong sum at %d\n", i);
            return 1;
        }
    }
    std::sort(step_ns.begin(), step_ns.end());
    std::printf("vector_add: %d steps of %d kernels, median_step_ns=%lld\n", steps, kernels,
                step_ns.empty() ? 0LL : step_ns[step_ns.size() / 2]);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
