// The collective-kernel rule (trace/collective.h) on real names: the kernels engines and
// libraries launch to move data between GPUs, as their public code declares them and as
// PyTorch-profiler and nsys traces print them, and the local reductions, gathers and
// MoE permutations that must not count as communication. The attribution classifier
// passes names lower-cased, so every name is also checked that way.
#include "trace/collective.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using tokenscope::trace::is_collective_kernel;

struct Case {
    const char* name;
    const char* from;
};

const Case kCollectives[] = {
    {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     "NCCL 2.19+ (profiler traces)"},
    {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
     "NCCL 2.8-2.18"},
    {"void ncclAllReduceRingLLKernel_sum_f32(CollectiveArgs)", "NCCL before 2.8"},
    {"ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)", "RCCL on MI300X"},
    {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, "
     "vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)",
     "vLLM csrc/custom_all_reduce.cuh"},
    {"void vllm::cross_device_reduce_2stage<__nv_bfloat16, 8>(vllm::RankData*, "
     "vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)",
     "vLLM csrc/custom_all_reduce.cuh"},
    {"void vllm::cross_device_reduce_half_butterfly<half, 4>(vllm::RankData*, "
     "vllm::RankSignals, vllm::Metadata volatile*, half*, int, int)",
     "vLLM csrc/custom_all_reduce.cuh (older)"},
    {"void sglang::cross_device_reduce_1stage<__nv_bfloat16, 8>(sglang::RankData*, "
     "sglang::RankSignals, sglang::Signal*, __nv_bfloat16*, int, int)",
     "sgl-kernel csrc/allreduce/custom_all_reduce.cuh"},
    {"_ZN5aiter26cross_device_reduce_1stageI14__hip_bfloat16Li8EEEvPNS_8RankDataENS_"
     "11RankSignalsEPNS_6SignalEPT_ii",
     "aiter custom all-reduce, mangled as ROCm traces print it"},
    {"void quickreduce::allreduce_prototype_twoshot<quickreduce::AllReduceTwoshot<"
     "__hip_bfloat16, quickreduce::CodecQ8<__hip_bfloat16, 8> >, __hip_bfloat16>("
     "__hip_bfloat16 const*, __hip_bfloat16*, unsigned int, unsigned int, int, unsigned "
     "char**, unsigned int, unsigned int)",
     "vLLM csrc/quickreduce/quick_reduce.h (AMD quick-reduce)"},
    {"void trt_llm::oneShotAllReduceKernel<__nv_bfloat16, 8, true>(trt_llm::AllReduceParams)",
     "sgl-kernel trt_reduce_internal.cu"},
    {"void tensorrt_llm::kernels::twoShotAllReduceKernel<__nv_bfloat16, 8, true>("
     "tensorrt_llm::kernels::AllReduceParams)",
     "TensorRT-LLM customAllReduceKernels.cu"},
    {"void tensorrt_llm::kernels::ar_fusion::allreduce_fusion_kernel_oneshot_lamport<"
     "(tensorrt_llm::kernels::ar_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, true, "
     "true>(tensorrt_llm::kernels::ar_fusion::AllReduceFusionParams)",
     "TensorRT-LLM communicationKernels/allReduceFusionKernels.cu"},
    {"void sglang::allreduce_1shotLL_1node<__nv_bfloat16>(mscclpp::MemoryChannelDeviceHandle*, "
     "__nv_bfloat16*, __nv_bfloat16*, void*, int, int, unsigned long)",
     "sgl-kernel mscclpp_allreduce.cuh"},
    {"void (anonymous namespace)::one_shot_all_reduce_kernel<c10::BFloat16, 16, 8>("
     "c10::BFloat16**, c10::BFloat16*, c10::BFloat16*, unsigned long, unsigned long, unsigned "
     "int**, unsigned long, unsigned long)",
     "PyTorch symm_mem/CUDASymmetricMemoryOps.cu"},
    {"void (anonymous namespace)::two_shot_all_reduce_kernel<c10::BFloat16, 16, 8, true, "
     "false>(c10::BFloat16**, c10::BFloat16*, unsigned long, unsigned long, unsigned int**, "
     "unsigned long, unsigned long, unsigned long)",
     "PyTorch symmetric memory (its reduce-scatter too)"},
    {"void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>("
     "c10::BFloat16*, unsigned long, unsigned int**, unsigned long, unsigned long)",
     "PyTorch symmetric memory, multimem"},
    {"void (anonymous namespace)::multimem_all_gather_kernel<16>(char*, char*, unsigned long, "
     "unsigned int**, unsigned long, unsigned long)",
     "PyTorch symmetric memory, multimem"},
    {"void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*, int*, "
     "int*, int4 const*, float const*, long const*, float const*, bool const*, int const*, int, "
     "int, int, int, int, int, void**, int, int, int)",
     "DeepEP csrc/kernels/intranode.cu"},
    {"void deep_ep::internode_ll::combine<false, 7168>(void*, void*, int*, void const*, long "
     "const*, float const*, int const*, long const*, int*, void*, long*, int, int, int, int, "
     "int, int, int, int, int, int, bool)",
     "DeepEP low-latency combine"},
    {"void deep_ep::legacy::intranode::notify_dispatch<8>(int const*, int*, int, int const*, "
     "int*, int, int, bool const*, int*, int*, int, int, int, int**, int)",
     "DeepEP csrc/kernels/legacy/intranode.cu"},
    {"void (anonymous namespace)::dispatchKernel<16u, true, true>(int*, unsigned long, "
     "std::byte*, unsigned long, unsigned long)",
     "pplx-kernels csrc/all_to_all/intranode_dispatch.cu"},
    {"void moeA2ADispatchKernel<4>(int const*, KernelPointers, int, int, int, int, int)",
     "TensorRT-LLM communicationKernels/moeAlltoAllKernels.cu"},
    {"void mori::moe::EpDispatchIntraNodeKernel<__hip_bfloat16>("
     "mori::moe::EpDispatchCombineArgs<__hip_bfloat16>)",
     "AMD mori expert-parallel dispatch"},
    {"void userbuffers_fp16_sum_inplace_gpu_rr_rs<8>(int, int, int, int, int, int, int, void**, "
     "int)",
     "TransformerEngine userbuffers"},
};

const Case kNotCollectives[] = {
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> "
     ">(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned "
     "int, float, 4>)",
     "ATen reduction (HF fixture)"},
    {"void splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, false>("
     "cublasSplitKParams<float>, float const*, float const*, float*, float const*, float "
     "const*, float const*, float const*, float*, void*, long, float*, int*)",
     "cuBLAS split-K (V100 fixture)"},
    {"void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, true, true, "
     "false>(cublasLt::cublasSplitKParams<float>, float const*)",
     "cuBLASLt split-K (V100 fixture)"},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
     "float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, "
     "float*, float*, c10::BFloat16*)",
     "ATen layer norm (block reduce)"},
    {"void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, 128, 128, 256, "
     "3, false>(__hip_bfloat16*, float const*, float const*, __hip_bfloat16 const*, int const*, "
     "int const*, int, int, float const*)",
     "vLLM ROCm paged attention (SGLang fixture)"},
    {"reduce_segments", "vLLM Triton unified attention (vLLM fixture)"},
    {"par_reduce_kernel", "CloverLeaf (nsys fixture)"},
    {"void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, long, "
     "long, long, bool)",
     "ATen gather (vLLM fixture)"},
    {"_combined_routing_compute", "triton_kernels MoE routing (vLLM fixture)"},
    {"_finalize_matmul_scatter_bf16", "triton_kernels MoE GEMM epilogue (vLLM fixture)"},
    {"void flash::flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, "
     "false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, "
     "cutlass::bfloat16_t> >, 4, 1, true>(Flash_fwd_params)",
     "FlashAttention split-KV combine: local"},
    {"deepep_permute_triton_kernel", "SGLang ep_moe/kernels.py: a local permutation"},
    {"_fwd_kernel_ep_scatter_1", "SGLang ep_moe/kernels.py: a local scatter"},
    {"void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int>(float const*, bool const*, float*, "
     "int, int*, int*, int, int, int)",
     "vLLM MoE routing"},
    {"void at::native::_scatter_gather_elementwise_kernel<128, 8, "
     "at::native::_cuda_scatter_gather_internal_kernel<true, long>::operator()<"
     "at::native::ReduceAdd>(at::TensorIterator&, long, long, long, at::native::ReduceAdd "
     "const&)::{lambda(int)#1}>(int, at::native::_cuda_scatter_gather_internal_kernel<true, "
     "long>::operator()<at::native::ReduceAdd>(at::TensorIterator&, long, long, long, "
     "at::native::ReduceAdd const&)::{lambda(int)#1})",
     "ATen scatter_add"},
};

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

TEST(CollectiveKernel, NamesEveryFamilyOfTheEngines) {
    for (const auto& c : kCollectives) {
        EXPECT_TRUE(is_collective_kernel(c.name)) << c.from << ": " << c.name;
        EXPECT_TRUE(is_collective_kernel(lower(c.name))) << "lower-cased: " << c.name;
    }
}

TEST(CollectiveKernel, LocalReductionsAndGathersAreNotCollectives) {
    for (const auto& c : kNotCollectives) {
        EXPECT_FALSE(is_collective_kernel(c.name)) << c.from << ": " << c.name;
        EXPECT_FALSE(is_collective_kernel(lower(c.name))) << "lower-cased: " << c.name;
    }
}

// Made-up names that pin the word rule: all_gather must start a word, and only the
// function's own name counts, not its template arguments or parameters.
TEST(CollectiveKernel, LooksAtTheFunctionsOwnWordsOnly) {
    EXPECT_FALSE(is_collective_kernel("void small_gather_kernel<float>(float*)"));
    EXPECT_TRUE(is_collective_kernel("void c10d::all_gather_kernel<float>(float*)"));
    EXPECT_FALSE(is_collective_kernel("void foo<ncclComm>(int)"));
    EXPECT_FALSE(is_collective_kernel("void foo(ncclComm*)"));
    EXPECT_FALSE(is_collective_kernel(""));
}

}  // namespace
