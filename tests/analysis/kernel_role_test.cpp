// Kernel roles (analysis/kernel_role.h) on real names. Every distinct kernel name of
// every fixture in ../shared/fixtures is read here, without Tokenscope's importers (the
// Kineto JSON through zlib and nlohmann::json, the nsys export with SQL), and none may
// be "other" unless the table below says why. Then a table of names picked by hand from
// the engines' code and traces, one or more per role.
#include "analysis/kernel_role.h"
#include "support/gzip_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/fixtures.h"

namespace tokenscope::analysis {
namespace {

const char* const kKinetoFixtures[] = {
    "engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz",
    "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz",
    "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz",
    "engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz",
    "kineto/hta_a100_cupti_profiler.json.gz",
    "kineto/hta_inference_rank_1.json.gz",
    "kineto/hta_v100_ns_resolution_rank0.json.gz",
};
const char* const kNsysFixture = "nsys/pipit_a100x4_cloverleaf.sqlite";

// Kernels no LLM engine launches, each with the reason it has no role. A name matches
// an entry when it contains `part`.
struct OtherReason {
    const char* part;
    const char* reason;
};
const OtherReason kOtherWithReason[] = {
    {"par_ranged", "CloverLeaf's hydrodynamics kernels (nsys fixture): physics, not a model"},
    {"pool", "CNN pooling in HTA's ResNet traces (max_pool_*, adaptive_average_pool)"},
    {"fft2d_", "cuDNN's FFT convolution transforms (HTA A100 trace): neither GEMM nor LLM"},
    {"__missing__", "Kineto's stand-in for a CUPTI profiler range without a kernel name"},
};

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// Kernels are events of category "kernel" ("Kernel" in older Kineto); the HTA A100
// trace records its kernels only as CUPTI profiler ranges named after them.
std::set<std::string> kineto_kernel_names(const std::string& relative) {
    const auto doc = nlohmann::json::parse(tokenscope::test::gunzip(test::fixture_path(relative)));
    const auto& events = doc.is_array() ? doc : doc.at("traceEvents");
    std::set<std::string> names;
    for (const auto& e : events) {
        if (!e.contains("cat") || !e["cat"].is_string() || !e.contains("name")) continue;
        const std::string cat = lower(e["cat"].get<std::string>());
        if (cat == "kernel" || cat == "cuda_profiler_range")
            names.insert(e["name"].get<std::string>());
    }
    return names;
}

// Both names nsys keeps per kernel: the short one and the demangled signature.
std::set<std::string> nsys_kernel_names(const std::string& relative) {
    std::set<std::string> names;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(test::fixture_path(relative).c_str(), &db, SQLITE_OPEN_READONLY, nullptr) !=
        SQLITE_OK) {
        sqlite3_close(db);
        return names;
    }
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON "
                       "s.id = k.shortName UNION SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL "
                       "k JOIN StringIds s ON s.id = k.demangledName",
                       -1, &st, nullptr);
    while (sqlite3_step(st) == SQLITE_ROW)
        names.emplace(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return names;
}

TEST(KernelRoleFixtures, EveryKernelHasARoleOrAReasonForOther) {
    for (const char* f : kKinetoFixtures) TOKENSCOPE_NEED_FIXTURE(f);
    TOKENSCOPE_NEED_FIXTURE(kNsysFixture);
    std::map<std::string, std::set<std::string>> by_file;
    for (const char* f : kKinetoFixtures) by_file[f] = kineto_kernel_names(f);
    by_file[kNsysFixture] = nsys_kernel_names(kNsysFixture);
    std::map<KernelRole, int> counts;
    std::vector<int> used(std::size(kOtherWithReason), 0);
    for (const auto& [file, names] : by_file) {
        EXPECT_FALSE(names.empty()) << file << ": no kernel names read";
        for (const auto& name : names) {
            const KernelRole role = kernel_role(name);
            ++counts[role];
            if (role != KernelRole::Other) continue;
            bool explained = false;
            for (std::size_t i = 0; i < std::size(kOtherWithReason); ++i)
                if (name.find(kOtherWithReason[i].part) != std::string::npos)
                    explained = true, ++used[i];
            EXPECT_TRUE(explained) << file << ": \"other\" with no reason: " << name;
        }
    }
    for (std::size_t i = 0; i < used.size(); ++i)
        EXPECT_GT(used[i], 0) << "stale reason, no fixture kernel needs it: "
                              << kOtherWithReason[i].part;
    // Every LLM role but communication (no fixture has several GPUs talking) occurs.
    for (KernelRole r : kKernelRoles) {
        if (r != KernelRole::Communication) {
            EXPECT_GT(counts[r], 0) << to_string(r);
        }
    }
    EXPECT_EQ(counts[KernelRole::Communication], 0);
}

struct Named {
    const char* name;
    KernelRole role;
    const char* from;
};

// Names as traces print them (argument lists shortened where long).
const Named kNamed[] = {
    // GEMM
    {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
     "segment_k_off_kernel__5x_cublas",
     KernelRole::Gemm, "cuBLAS on H100 (HF fixture)"},
    {"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT", KernelRole::Gemm, "cuBLAS on Hopper"},
    {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1_SN_LDSB1_AFC1",
     KernelRole::Gemm, "hipBLASLt/Tensile (SGLang fixture, truncated)"},
    {"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu", KernelRole::Gemm,
     "triton_kernels MoE GEMM (vLLM fixture)"},
    {"fused_moe_kernel", KernelRole::Gemm, "vLLM/SGLang Triton fused MoE"},
    {"void marlin_moe_wna16::Marlin<__nv_bfloat16, 4, 8, 8, 4, 8>(int4 const*)", KernelRole::Gemm,
     "vLLM Marlin MoE"},
    {"void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>(int, int, int)", KernelRole::Gemm,
     "vLLM csrc/rocm/skinny_gemms.cu"},
    {"void splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, false>("
     "cublasSplitKParams<float>, float const*)",
     KernelRole::Gemm, "cuBLAS split-K step: a reduction, not a collective (V100 fixture)"},
    {"cudnn_infer_volta_scudnn_winograd_128x128_ldg1_ldg4_relu_tile148t_nt_v1", KernelRole::Gemm,
     "cuDNN convolution (V100 fixture)"},
    // Attention
    {"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, "
     "4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<64, 128, 128, 4, "
     "cutlass::bfloat16_t> >, false, true, false, false, false, true, false>(Flash_fwd_params)",
     KernelRole::Attention, "PyTorch SDPA flash (HF fixture)"},
    {"void flashinfer::BatchDecodeWithPagedKVCacheKernel<(flashinfer::PosEncodingMode)0, 2u, "
     "4u, 8u, 16u, 1u, 8u>(flashinfer::BatchDecodeParams)",
     KernelRole::Attention, "FlashInfer decode"},
    {"void vllm::paged_attention_v2_reduce_kernel<unsigned short, 128, 128, 512>(unsigned short*, "
     "float const*)",
     KernelRole::Attention, "vLLM csrc/attention"},
    {"kernel_unified_attention_3d", KernelRole::Attention, "vLLM Triton attention (fixture)"},
    {"reduce_segments", KernelRole::Attention, "vLLM Triton attention's split reduce (fixture)"},
    {"_fwd_grouped_kernel_stage1", KernelRole::Attention, "SGLang Triton decode attention"},
    {"void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16, __hip_bfloat16, "
     "(vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*)",
     KernelRole::Attention, "vLLM KV-cache write (fixture)"},
    {"void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous "
     "namespace)::StoreKVCacheParams)",
     KernelRole::Attention, "SGLang KV-cache write (fixture)"},
    // Communication
    {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>(vllm::RankData*, "
     "vllm::RankSignals, vllm::Signal*, __nv_bfloat16*, int, int)",
     KernelRole::Communication, "vLLM custom all-reduce"},
    {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     KernelRole::Communication, "NCCL"},
    {"void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, "
     "unsigned long, unsigned int**, unsigned long, unsigned long)",
     KernelRole::Communication, "PyTorch symmetric memory"},
    {"void deep_ep::internode_ll::dispatch<false, 7168>(void*, float*, int*)",
     KernelRole::Communication, "DeepEP"},
    // Normalisation
    {"_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvPT0_PT_PfS4_"
     "S4_S4_diiiiiiib",
     KernelRole::Normalization, "aiter fused add + RMSNorm (SGLang fixture)"},
    {"_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassINS_"
     "27Rmsnorm2dFwdPipelineProblemIDF16bDF16bfDF16bDF16bDF16bffNS_19Generic2dBlockShapeINS_"
     "8sequenceIJLi1ELi3072EEEENS5_IJLi1ELi128EEEENS5_IJLi1ELi8EEEEEENS_18Rmsnorm2dFwdTraitsILb1E"
     "Lb0ELb0ELb0ELNS_21Rmsnorm2dFusedAddEnumE1ELNS_23Rmsnorm2dFusedQuantEnumE0ELNS_"
     "22Rmsnorm2dSensitiveEnumE0EEEEENS_33Rmsnorm2dFwdPipelineDefaultPolicyEEENS_"
     "17Default2DEpilogueINS_24Default2DEpilogueProblemIfDF16bLb0ELb1ELb0EEEvEEEEJNSM_"
     "5KargsEEEEvDpT1_",
     KernelRole::Normalization,
     "CK RMSNorm, mangled; its Default2DEpilogue is no GEMM (vLLM fixture)"},
    {"void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*)",
     KernelRole::Normalization, "vLLM csrc/layernorm_kernels.cu"},
    {"void flashinfer::norm::FusedAddRMSNormKernel<8u, __nv_bfloat16>(__nv_bfloat16*)",
     KernelRole::Normalization, "FlashInfer norm (not attention)"},
    {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
     "float>(int, float, c10::BFloat16 const*)",
     KernelRole::Normalization, "ATen layer norm"},
    // Activation / elementwise
    {"_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_"
     "ES3_S5_EEEEvPS3_PS4_i",
     KernelRole::Elementwise, "sgl-kernel SiLU-and-mul (SGLang fixture)"},
    {"void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*)",
     KernelRole::Elementwise, "vLLM rotary embedding (fixture)"},
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> "
     ">(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned "
     "int, float, 4>)",
     KernelRole::Elementwise, "ATen mean: a local reduction (HF fixture)"},
    {"void vllm::moe::topkGatingSoftmax<8, 8, 4, 16, 32, int>(float const*, bool const*)",
     KernelRole::Elementwise, "vLLM MoE routing: glue, not a norm"},
    {"_topk_forward", KernelRole::Elementwise, "triton_kernels MoE routing (vLLM fixture)"},
    {"triton_poi_fused_arange_ge_index_put_lift_fresh_0", KernelRole::Elementwise,
     "Inductor pointwise"},
    // Sampling
    {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
     "at::native::ArgMaxOps<float>, unsigned int, long, 4, 4> >(at::native::ReduceOp<float, "
     "at::native::ArgMaxOps<float>, unsigned int, long, 4, 4>)",
     KernelRole::Sampling, "greedy sampling (SGLang fixture)"},
    {"void flashinfer::sampling::TopKTopPSamplingFromProbKernel<1024u, "
     "(cub::BlockScanAlgorithm)1, (cub::BlockReduceAlgorithm)2, 4u, false, float, int>(float*)",
     KernelRole::Sampling, "FlashInfer sampling (not attention)"},
    {"void vllm::apply_repetition_penalties_kernel<c10::BFloat16>(c10::BFloat16*, bool const*)",
     KernelRole::Sampling, "vLLM penalties"},
    // Copy
    {"void at::native::vectorized_elementwise_kernel<4, "
     "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
     "std::array<char*, 2ul> >(int, "
     "at::native::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, "
     "std::array<char*, 2ul>)",
     KernelRole::Copy, "ATen cast: a copy, though elementwise_kernel (HF fixture)"},
    {"triton_poi_fused__to_copy_1", KernelRole::Copy, "Inductor cast (vLLM fixture)"},
    // Other
    {"par_ranged2d_kernel", KernelRole::Other, "CloverLeaf (nsys fixture)"},
};

class RealKernelNames : public ::testing::TestWithParam<Named> {};

TEST_P(RealKernelNames, HaveTheirRole) {
    const Named& n = GetParam();
    EXPECT_EQ(to_string(kernel_role(n.name)), to_string(n.role)) << n.from << ": " << n.name;
}

INSTANTIATE_TEST_SUITE_P(Engines, RealKernelNames, ::testing::ValuesIn(kNamed));

// The built-in decode's kernels carry their plan entries' names (kernels/kernel_spec.cpp),
// draft model's with "draft_" before them; library helpers after a '/'.
TEST(KernelRoles, TheBuiltInDecodesPlanNames) {
    const std::pair<const char*, KernelRole> plan[] = {
        {"embedding", KernelRole::Elementwise},
        {"attn_rms_norm", KernelRole::Normalization},
        {"qkv_proj", KernelRole::Gemm},
        {"rope", KernelRole::Elementwise},
        {"attention", KernelRole::Attention},
        {"o_proj", KernelRole::Gemm},
        {"mlp_rms_norm", KernelRole::Normalization},
        {"mlp_gate_up", KernelRole::Gemm},
        {"silu_mul", KernelRole::Elementwise},
        {"mlp_down", KernelRole::Gemm},
        {"final_rms_norm", KernelRole::Normalization},
        {"lm_head", KernelRole::Gemm},
        {"argmax", KernelRole::Sampling},
        {"draft_o_proj", KernelRole::Gemm},
        {"mlp_down/cublasLt::splitKreduce_kernel", KernelRole::Gemm}};
    for (const auto& [name, role] : plan)
        EXPECT_EQ(to_string(kernel_role(name)), to_string(role)) << name;
}

TEST(KernelRoles, KeysAndNamesRoundTrip) {
    for (KernelRole r : kKernelRoles) {
        EXPECT_EQ(kernel_role_from_string(to_string(r)), r);
        EXPECT_FALSE(display_name(r).empty());
    }
    EXPECT_EQ(to_string(KernelRole::Normalization), "normalization");
    EXPECT_EQ(display_name(KernelRole::Gemm), "GEMM");
    EXPECT_FALSE(kernel_role_from_string("GEMM"));
}

// Copies and memsets are Copy whatever their name; host work and the cpu backend's
// "kernels" on host threads have no role; a kernel's role is its name's, cached.
TEST(KernelRoles, ByActivity) {
    using trace::ActivityKind;
    trace::RunData run;
    run.lanes = {{trace::LaneKind::CpuThread, -1, 1, 1, "main"},
                 {trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"}};
    const auto gemm = run.strings.intern("volta_sgemm_64x64_nn");
    const auto memcpy = run.strings.intern("Memcpy HtoD (Pageable -> Device)");
    auto a = [](std::uint16_t lane, ActivityKind kind, std::uint32_t name) {
        trace::Activity x;
        x.lane = lane, x.kind = kind, x.name = name;
        return x;
    };
    KernelRoles roles(run);
    EXPECT_EQ(roles.of(a(1, ActivityKind::Kernel, gemm)), KernelRole::Gemm);
    EXPECT_EQ(roles.of(a(1, ActivityKind::Kernel, gemm)), KernelRole::Gemm);  // cached
    EXPECT_EQ(roles.of(a(1, ActivityKind::Memcpy, memcpy)), KernelRole::Copy);
    EXPECT_EQ(roles.of(a(1, ActivityKind::Memset, gemm)), KernelRole::Copy);
    EXPECT_EQ(roles.of(a(0, ActivityKind::Kernel, gemm)), std::nullopt);
    EXPECT_EQ(roles.of(a(0, ActivityKind::Api, gemm)), std::nullopt);
    EXPECT_EQ(roles.of(a(1, ActivityKind::Range, gemm)), std::nullopt);
    // A name interned after the cache was sized still gets its role.
    const auto late = run.strings.intern("void vllm::cross_device_reduce_2stage<float, 8>()");
    EXPECT_EQ(roles.of_name(late), KernelRole::Communication);
}

}  // namespace
}  // namespace tokenscope::analysis
