#pragma once

#include <cstddef>
#include <string_view>

namespace tokenscope::trace {

namespace collective_detail {

inline char lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline bool is_letter(char c) {
    c = lower(c);
    return c >= 'a' && c <= 'z';
}

// Case-insensitive: the classifier passes names lower-cased, the rank merge as written.
inline bool equal_at(std::string_view text, std::size_t at, std::string_view word) {
    if (at + word.size() > text.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
        if (lower(text[at + i]) != word[i]) return false;
    return true;
}

inline bool contains(std::string_view text, std::string_view word) {
    for (std::size_t at = 0; at + word.size() <= text.size(); ++at)
        if (equal_at(text, at, word)) return true;
    return false;
}

// `word` where it starts a word: not after a letter, so "small_gather" is no all_gather.
inline bool contains_word(std::string_view text, std::string_view word) {
    for (std::size_t at = 0; at + word.size() <= text.size(); ++at)
        if ((at == 0 || !is_letter(text[at - 1])) && equal_at(text, at, word)) return true;
    return false;
}

// The function's own qualified name: a demangled signature without its return type,
// template arguments and parameters ("void (anonymous namespace)::f<T>(int)" reads
// "(anonymous namespace)::f"). The rule looks only here, since template arguments and
// parameter types name anything (ReduceOp<...>, cublasGemv...). Names that are not
// signatures (Triton's, Tensile's, mangled ones) come back whole.
inline std::string_view function_name(std::string_view name) {
    constexpr std::string_view kAnonymous = "(anonymous namespace)";
    std::size_t start = 0, i = 0;
    while (i < name.size()) {
        if (equal_at(name, i, kAnonymous)) {
            i += kAnonymous.size();
            continue;
        }
        const char c = name[i];
        if (c == '<' || c == '(') break;
        if (c == ' ') start = i + 1;  // what came before was the return type
        ++i;
    }
    return name.substr(start, i - start);
}

// The last component of a qualified name: "deep_ep::intranode::dispatch" -> "dispatch".
inline std::string_view base_name(std::string_view qualified) {
    const std::size_t colon = qualified.rfind("::");
    return colon == std::string_view::npos ? qualified : qualified.substr(colon + 2);
}

}  // namespace collective_detail

// True for a kernel that moves data between GPUs: a collective (all-reduce, all-gather,
// reduce-scatter, all-to-all) or an expert-parallel dispatch/combine. The one rule the
// rank merge (matching the same collective across ranks), attribution (nvlink or pcie)
// and the kernel roles (communication) use. Families, from the engines' public code:
// - NCCL (ncclKernel_*, ncclDevKernel_*; before 2.8 nccl<Op>...Kernel_*), RCCL (the same
//   names, ncclDevKernel_Generic_N, and MSCCL's mscclKernel_*), MSCCL++;
// - vLLM's custom all-reduce, vllm::cross_device_reduce_1stage / _2stage / _half_butterfly
//   (csrc/custom_all_reduce.cuh), copied as sglang:: and aiter::cross_device_reduce_*
//   (sgl-kernel/csrc/allreduce/custom_all_reduce.cuh);
// - all-reduce kernels by name: AMD quick-reduce quickreduce::allreduce_prototype_twoshot
//   (vllm csrc/quickreduce/quick_reduce.h, sglang quick_all_reduce), TensorRT-LLM's
//   oneShotAllReduceKernel / twoShotAllReduceKernel (customAllReduceKernels.cu, also
//   sgl-kernel trt_reduce_internal.cu), allreduce_fusion_kernel_oneshot_lamport
//   (communicationKernels/allReduceFusionKernels.cu, FlashInfer), sglang's mscclpp
//   allreduce_1shotLL_1node, PyTorch symmetric memory's one_shot_all_reduce_kernel,
//   two_shot_all_reduce_kernel, multimem_all_reduce_kernel, multimem_all_gather_kernel
//   (torch/csrc/distributed/c10d/symm_mem/CUDASymmetricMemoryOps.cu);
// - expert parallelism: DeepEP's deep_ep::{intranode,internode,internode_ll,elastic}::
//   dispatch / combine / notify_dispatch... (csrc/kernels), TensorRT-LLM's
//   moeA2ADispatchKernel / moeA2ACombineKernel (communicationKernels/moeAlltoAllKernels.cu),
//   pplx-kernels' dispatchKernel / combineKernel (csrc/all_to_all), AMD mori's
//   EpDispatchIntraNodeKernel / EpCombine...; TransformerEngine's userbuffers_* and
//   NVSHMEM's own kernels.
// A local reduction (at::native::reduce_kernel, cuBLAS's splitKreduce_kernel, a paged
// attention's reduce) or a local gather/scatter (vectorized_gather_kernel, MoE routing)
// is not one: no rule matches a bare "reduce", "gather", "dispatch" or "combine".
inline bool is_collective_kernel(std::string_view name) {
    using namespace collective_detail;
    const std::string_view fn = function_name(name);
    for (std::string_view library : {"nccl", "rccl", "msccl", "nvshmem", "userbuffers"})
        if (contains(fn, library)) return true;
    // Written without a separator these words occur in no ordinary kernel name, and
    // camelCase (oneShotAllReduceKernel) reaches here lower-cased from the classifier.
    for (std::string_view op : {"allreduce", "allgather", "reducescatter", "alltoall", "all2all",
                                "cross_device_reduce", "moea2a"})
        if (contains(fn, op)) return true;
    for (std::string_view op : {"all_reduce", "all_gather", "reduce_scatter", "all_to_all"})
        if (contains_word(fn, op)) return true;
    if (contains(fn, "deep_ep")) return true;  // every DeepEP kernel; mangled too
    const std::string_view base = base_name(fn);
    if (equal_at(base, 0, "epdispatch") || equal_at(base, 0, "epcombine")) return true;
    // pplx-kernels' names are generic, so only exactly these.
    return (base.size() == 14 && equal_at(base, 0, "dispatchkernel")) ||
           (base.size() == 13 && equal_at(base, 0, "combinekernel"));
}

}  // namespace tokenscope::trace
