#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "device_ops.h"
#include "kernels/model_shape.h"

namespace tokenscope::kernels::cuda {

// One product of the workload: y[m][n] = x[m][k] . w[k][n] (+ residual), all row-major,
// x and w in dtype, y in dtype or fp32 (logits). residual may alias y.
struct MatmulCall {
    DType dtype = DType::Bf16;
    const void* x = nullptr;
    const void* w = nullptr;
    void* y = nullptr;
    bool y_fp32 = false;
    const void* residual = nullptr;
    std::int64_t m = 0, k = 0, n = 0;
};

// The projections and the LM head. With cuBLASLt (CublasLtLibrary) every product is one
// cublasLtMatmul with fp32 accumulation: fp16/bf16 operands with CUBLAS_COMPUTE_32F and
// fp32 scale, the residual as beta = 1 into D = C in place, split-K partials kept in
// fp32 (the heuristic may not pick a scheme that reduces in the 16-bit output type, so
// results stay exact where the built-in kernels' are), the first algorithm of the
// heuristic within a 32 MiB workspace. Each shape's algorithm is chosen once and the
// kernels its call launches are counted once, by capturing one call into a graph that
// is never launched (prepare()): the kernel plan names one entry, and the plan matcher
// needs to know how many kernels that entry launches (a GEMM plus, for split-K, a
// reduction). Without cuBLASLt, or for a shape it cannot do, the built-in kernels
// (launch_matmul: split-k GEMV, tiled GEMM) run, one kernel per call.
class MatmulEngine {
  public:
    // Allocates the cuBLASLt handle and workspace when the library is there; throws
    // CudaError for a CUDA failure.
    MatmulEngine();
    ~MatmulEngine();
    MatmulEngine(const MatmulEngine&) = delete;
    MatmulEngine& operator=(const MatmulEngine&) = delete;

    // Chooses the call's algorithm and counts its kernels; nothing runs. Call before
    // tracing and never while `stream`-capturing work is under way on this thread.
    void prepare(const MatmulCall& call);
    // Enqueues the product on `stream`; returns how many kernels it launched.
    int run(const MatmulCall& call, const GemvScratch& scratch, cudaStream_t stream);

    bool uses_library() const;
    // "cuBLASLt 130002 (libcublasLt.so.13), fp32 accumulation" or "built-in kernels
    // (split-k GEMV, tiled GEMM): <why not cuBLASLt>".
    std::string description() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tokenscope::kernels::cuda
