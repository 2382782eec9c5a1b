#include "matmul_engine.h"

#include <cstdint>
#include <functional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "cublaslt_library.h"
#include "cuda_check.h"
#include "device_buffer.h"

namespace tokenscope::kernels::cuda {
namespace {

// NVIDIA's advice for Hopper; split-K partials of the largest decode product
// (8 x 128256 fp32 logits, a few splits) fit many times over.
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;
constexpr int kHeuristicResults = 8;

cudaDataType cuda_type(DType d) {
    switch (d) {
        case DType::Fp32:
            return CUDA_R_32F;
        case DType::Fp16:
            return CUDA_R_16F;
        case DType::Bf16:
            break;
    }
    return CUDA_R_16BF;
}

// The largest power of two (at most 256) that the address is a multiple of.
std::uint32_t alignment_of(const void* p) {
    const auto a = reinterpret_cast<std::uintptr_t>(p);
    std::uint32_t al = 256;
    while (al > 1 && a % al != 0) al /= 2;
    return al;
}

// What decides the algorithm: types, shape, the residual's role and the alignments.
struct PlanKey {
    DType dtype = DType::Bf16;
    bool y_fp32 = false;
    int residual = 0;  // 0 none, 1 in place (residual == y), 2 another buffer
    std::int64_t m = 0, k = 0, n = 0;
    std::uint32_t align_x = 0, align_w = 0, align_y = 0, align_r = 0;
    bool operator==(const PlanKey&) const = default;
};

struct PlanKeyHash {
    std::size_t operator()(const PlanKey& k) const {
        std::size_t h = std::hash<std::int64_t>()(k.m);
        auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
        mix(static_cast<std::uint64_t>(k.k));
        mix(static_cast<std::uint64_t>(k.n));
        mix(static_cast<std::uint64_t>(k.dtype) | (k.y_fp32 ? 8u : 0u) |
            (static_cast<std::uint64_t>(k.residual) << 4));
        mix((std::uint64_t{k.align_x} << 48) ^ (std::uint64_t{k.align_w} << 32) ^
            (std::uint64_t{k.align_y} << 16) ^ k.align_r);
        return h;
    }
};

PlanKey key_of(const MatmulCall& c) {
    PlanKey k;
    k.dtype = c.dtype;
    k.y_fp32 = c.y_fp32;
    k.residual = c.residual == nullptr ? 0 : c.residual == c.y ? 1 : 2;
    k.m = c.m;
    k.k = c.k;
    k.n = c.n;
    k.align_x = alignment_of(c.x);
    k.align_w = alignment_of(c.w);
    k.align_y = alignment_of(c.y);
    k.align_r = c.residual != nullptr ? alignment_of(c.residual) : 256;
    return k;
}

// One shape's descriptors and algorithm. Row-major y = x . w is, column-major,
// y^T (n x m, ld n) = w^T (n x k, ld n) . x^T (k x m, ld k): A = w, B = x, no transposes.
struct Plan {
    bool usable = false;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
    cublasLtMatmulAlgo_t algo{};
    std::size_t workspace = 0;
    int kernels = 1;
};

}  // namespace

struct MatmulEngine::Impl {
    const CublasLtLibrary& lib = CublasLtLibrary::get();
    cublasLtHandle_t handle = nullptr;
    DeviceBuffer workspace;
    cudaStream_t probe_stream = nullptr;
    std::unordered_map<PlanKey, Plan, PlanKeyHash> plans;
    std::string why_not;         // why the built-in kernels run everywhere; empty with cuBLASLt
    std::int64_t fallbacks = 0;  // shapes cuBLASLt had no algorithm for

    Impl() {
        if (!lib.loaded()) {
            why_not = lib.why_not();
            return;
        }
        // No device, no handle: cublasLtCreate without a driver fails and leaks its
        // half-made handle (LeakSanitizer, 192 bytes inside libcublasLt).
        int devices = 0;
        if (const cudaError_t e = cudaGetDeviceCount(&devices); e != cudaSuccess || devices == 0) {
            why_not = std::string("no CUDA device (") +
                      (e != cudaSuccess ? cudaGetErrorString(e) : "none found") +
                      "): the built-in kernels run";
            cudaGetLastError();  // clear the sticky error the query left
            return;
        }
        if (const cublasStatus_t s = lib.api().create(&handle); s != CUBLAS_STATUS_SUCCESS) {
            why_not = "cublasLtCreate failed (status " + std::to_string(s) + ")";
            handle = nullptr;
            return;
        }
        workspace = DeviceBuffer(kWorkspaceBytes, "cuBLASLt workspace");
        check_cuda(cudaStreamCreateWithFlags(&probe_stream, cudaStreamNonBlocking),
                   "cuBLASLt probe stream");
    }
    ~Impl() {
        for (auto& [key, plan] : plans) release(plan);
        if (probe_stream != nullptr) cudaStreamDestroy(probe_stream);
        if (handle != nullptr) lib.api().destroy(handle);
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    void release(Plan& p) const {
        const auto& api = lib.api();
        if (p.desc != nullptr) api.desc_destroy(p.desc);
        for (auto* l : {p.a, p.b, p.c, p.d})
            if (l != nullptr) api.layout_destroy(l);
        p = Plan{};
    }

    Plan make_plan(const PlanKey& key) const;
    int count_kernels(const Plan& plan, const MatmulCall& c) const;
    cublasStatus_t enqueue(const Plan& plan, const MatmulCall& c, cudaStream_t stream) const;
    const Plan& plan_for(const MatmulCall& c, cudaStream_t stream);
};

Plan MatmulEngine::Impl::make_plan(const PlanKey& key) const {
    const auto& api = lib.api();
    Plan p;
    const cudaDataType in = cuda_type(key.dtype);
    const cudaDataType out = key.y_fp32 ? CUDA_R_32F : in;
    const auto m = static_cast<std::uint64_t>(key.m), k = static_cast<std::uint64_t>(key.k),
               n = static_cast<std::uint64_t>(key.n);
    const cublasComputeType_t compute = CUBLAS_COMPUTE_32F;  // no TF32, no 16-bit sums
    const cudaDataType scale = CUDA_R_32F;
    bool ok = api.desc_create(&p.desc, compute, scale) == CUBLAS_STATUS_SUCCESS;
    const cublasOperation_t none = CUBLAS_OP_N;
    ok = ok &&
         api.desc_set(p.desc, CUBLASLT_MATMUL_DESC_TRANSA, &none, sizeof none) ==
             CUBLAS_STATUS_SUCCESS &&
         api.desc_set(p.desc, CUBLASLT_MATMUL_DESC_TRANSB, &none, sizeof none) ==
             CUBLAS_STATUS_SUCCESS;
    ok = ok &&
         api.layout_create(&p.a, in, n, k, static_cast<std::int64_t>(n)) == CUBLAS_STATUS_SUCCESS;
    ok = ok &&
         api.layout_create(&p.b, in, k, m, static_cast<std::int64_t>(k)) == CUBLAS_STATUS_SUCCESS;
    ok = ok &&
         api.layout_create(&p.c, out, n, m, static_cast<std::int64_t>(n)) == CUBLAS_STATUS_SUCCESS;
    ok = ok &&
         api.layout_create(&p.d, out, n, m, static_cast<std::int64_t>(n)) == CUBLAS_STATUS_SUCCESS;
    cublasLtMatmulPreference_t pref = nullptr;
    ok = ok && api.pref_create(&pref) == CUBLAS_STATUS_SUCCESS;
    if (ok) {
        const std::uint64_t bytes = kWorkspaceBytes;
        // Split-K partials in fp32 only: a reduction in the 16-bit output type (or in
        // place in it) would round every partial sum.
        std::uint32_t schemes = static_cast<std::uint32_t>(CUBLASLT_REDUCTION_SCHEME_NONE) |
                                static_cast<std::uint32_t>(CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE);
        if (key.y_fp32) schemes |= static_cast<std::uint32_t>(CUBLASLT_REDUCTION_SCHEME_INPLACE);
        const std::uint32_t align_a = key.align_w, align_b = key.align_x,
                            align_c = key.residual == 2 ? key.align_r : key.align_y,
                            align_d = key.align_y;
        ok = api.pref_set(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof bytes) ==
                 CUBLAS_STATUS_SUCCESS &&
             api.pref_set(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, &schemes,
                          sizeof schemes) == CUBLAS_STATUS_SUCCESS &&
             api.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &align_a,
                          sizeof align_a) == CUBLAS_STATUS_SUCCESS &&
             api.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &align_b,
                          sizeof align_b) == CUBLAS_STATUS_SUCCESS &&
             api.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &align_c,
                          sizeof align_c) == CUBLAS_STATUS_SUCCESS &&
             api.pref_set(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &align_d,
                          sizeof align_d) == CUBLAS_STATUS_SUCCESS;
    }
    if (ok) {
        cublasLtMatmulHeuristicResult_t results[kHeuristicResults]{};
        int found = 0;
        ok = api.heuristic(handle, p.desc, p.a, p.b, p.c, p.d, pref, kHeuristicResults, results,
                           &found) == CUBLAS_STATUS_SUCCESS &&
             found > 0;
        // Ordered by estimated time: the first that is valid within the workspace.
        bool chosen = false;
        for (int i = 0; ok && i < found && !chosen; ++i) {
            if (results[i].state != CUBLAS_STATUS_SUCCESS) continue;
            if (results[i].workspaceSize > kWorkspaceBytes) continue;
            p.algo = results[i].algo;
            p.workspace = results[i].workspaceSize;
            chosen = true;
        }
        ok = ok && chosen;
    }
    if (pref != nullptr) api.pref_destroy(pref);
    p.usable = ok;
    return p;
}

cublasStatus_t MatmulEngine::Impl::enqueue(const Plan& plan, const MatmulCall& c,
                                           cudaStream_t stream) const {
    const float alpha = 1.0f;
    const float beta = c.residual != nullptr ? 1.0f : 0.0f;
    const void* source = c.residual != nullptr ? c.residual : c.y;
    return lib.api().matmul(handle, plan.desc, &alpha, c.w, plan.a, c.x, plan.b, &beta, source,
                            plan.c, c.y, plan.d, &plan.algo, workspace.get(), plan.workspace,
                            stream);
}

// One call captured into a graph on a private stream and never launched: its kernel
// nodes are the kernels every such call launches. -1 when the call cannot be captured.
int MatmulEngine::Impl::count_kernels(const Plan& plan, const MatmulCall& c) const {
    check_cuda(cudaStreamBeginCapture(probe_stream, cudaStreamCaptureModeThreadLocal),
               "cuBLASLt probe capture");
    const cublasStatus_t status = enqueue(plan, c, probe_stream);
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(probe_stream, &graph);
    int kernels = -1;
    if (status == CUBLAS_STATUS_SUCCESS && ended == cudaSuccess && graph != nullptr) {
        std::size_t count = 0;
        if (cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess) {
            std::vector<cudaGraphNode_t> nodes(count);
            if (cudaGraphGetNodes(graph, nodes.data(), &count) == cudaSuccess) {
                kernels = 0;
                for (auto* node : nodes) {
                    cudaGraphNodeType type{};
                    if (cudaGraphNodeGetType(node, &type) == cudaSuccess &&
                        type == cudaGraphNodeTypeKernel)
                        ++kernels;
                }
            }
        }
    }
    if (graph != nullptr) cudaGraphDestroy(graph);
    cudaGetLastError();  // a refused capture is not the caller's error
    return kernels;
}

// At prepare() time, or at run time for a shape nobody prepared: its kernels are
// counted unless `stream` is being captured (a capture cannot begin inside another
// on this thread's terms), where the call is taken for one kernel.
const Plan& MatmulEngine::Impl::plan_for(const MatmulCall& c, cudaStream_t stream) {
    const PlanKey key = key_of(c);
    if (auto it = plans.find(key); it != plans.end()) return it->second;
    Plan p = make_plan(key);
    if (p.usable) {
        cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
        if (stream != nullptr && cudaStreamIsCapturing(stream, &capturing) != cudaSuccess)
            capturing = cudaStreamCaptureStatusActive;
        const int n = capturing == cudaStreamCaptureStatusNone ? count_kernels(p, c) : 1;
        if (n < 1) {
            release(p);
            p.usable = false;
        } else {
            p.kernels = n;
        }
    }
    if (!p.usable) ++fallbacks;
    return plans.emplace(key, p).first->second;
}

MatmulEngine::MatmulEngine() : impl_(std::make_unique<Impl>()) {}
MatmulEngine::~MatmulEngine() = default;

void MatmulEngine::prepare(const MatmulCall& call) {
    if (impl_->handle != nullptr) impl_->plan_for(call, nullptr);
}

int MatmulEngine::run(const MatmulCall& c, const GemvScratch& scratch, cudaStream_t stream) {
    if (impl_->handle != nullptr) {
        const Plan& plan = impl_->plan_for(c, stream);
        if (plan.usable) {
            const cublasStatus_t s = impl_->enqueue(plan, c, stream);
            if (s != CUBLAS_STATUS_SUCCESS)
                throw CudaError("cublasLtMatmul " + std::to_string(c.m) + "x" +
                                std::to_string(c.k) + "x" + std::to_string(c.n) + ": status " +
                                std::to_string(s));
            return plan.kernels;
        }
    }
    launch_matmul(c.dtype, c.x, c.w, c.y, c.y_fp32, c.residual, c.m, c.k, c.n, scratch, stream);
    return 1;
}

bool MatmulEngine::uses_library() const {
    return impl_->handle != nullptr;
}

std::string MatmulEngine::description() const {
    if (impl_->handle == nullptr)
        return "built-in kernels (split-k GEMV, tiled GEMM): " + impl_->why_not;
    std::string d = "cuBLASLt " + std::to_string(impl_->lib.version()) + " (" + impl_->lib.path() +
                    "), fp32 accumulation";
    if (impl_->fallbacks > 0)
        d += "; built-in kernels for " + std::to_string(impl_->fallbacks) +
             " shape(s) it had no algorithm for";
    return d;
}

}  // namespace tokenscope::kernels::cuda
