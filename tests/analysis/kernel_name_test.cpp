// The kernel-name shortening rule on real demangled names: every name is read from
// the fixtures in ../shared/fixtures (in place), and the expected short names are
// the rule applied by hand (return type, template arguments, parameter lists and
// namespaces dropped; a cutlass::Kernel wrapper reads as its operator).
#include "analysis/kernel_name.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "import/open_any.h"
#include "support/fixtures.h"

using tokenscope::analysis::short_kernel_name;

namespace {

std::set<std::string> fixture_kernels(const std::string& file) {
    std::set<std::string> names;
    auto runs =
        tokenscope::import::open_any(std::string(TOKENSCOPE_FIXTURES_DIR) + "/" + file, {}, {});
    for (const auto& run : runs)
        for (const auto& a : run.activities)
            if (a.kind == tokenscope::trace::ActivityKind::Kernel) names.emplace(run.name_of(a));
    return names;
}

struct Case {
    const char* file;
    const char* full;
    const char* expected;
};

const Case kCases[] = {
    {"kineto/hta_v100_ns_resolution_rank0.json.gz",
     "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
     "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, "
     "1>)",
     "vectorized_elementwise_kernel"},
    {"kineto/hta_v100_ns_resolution_rank0.json.gz",
     "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, "
     "false>(float*, float const*, int, int, int, bool const*, int, bool)",
     "softmax_warp_forward"},
    {"kineto/hta_v100_ns_resolution_rank0.json.gz",
     "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float "
     "const*, long, long, long, int, int, int, int, int, int, int, int, int, int, float*, long*)",
     "max_pool_forward_nchw"},
    {"kineto/hta_v100_ns_resolution_rank0.json.gz",
     "cask_cudnn_train::computeWgradBOffsetsKernel(cask_cudnn_train::ComputeWgradBOffsetsParams)",
     "computeWgradBOffsetsKernel"},
    {"kineto/hta_v100_ns_resolution_rank0.json.gz",
     "cudnn_infer_volta_scudnn_128x64_relu_small_nn_v1",
     "cudnn_infer_volta_scudnn_128x64_relu_small_nn_v1"},
    {"kineto/hta_inference_rank_1.json.gz",
     "void cutlass::Kernel<cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8>("
     "cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8::Params)",
     "cutlass_70_wmma_tensorop_f16_s161616gemm_f16_32x32_64x2_tn_align8"},
    {"nsys/pipit_a100x4_cloverleaf.sqlite",
     "void clover::par_ranged2d_kernel<build_field(global_variables &)::[lambda(int, int) "
     "(instance 1)]>(clover::Range2d, T1)",
     "par_ranged2d_kernel"},
};

}  // namespace

TEST(KernelName, RealDemangledNamesFromTheFixtures) {
    for (const Case& c : kCases) TOKENSCOPE_NEED_FIXTURE(c.file);
    for (const Case& c : kCases) {
        const auto names = fixture_kernels(c.file);
        EXPECT_TRUE(names.count(c.full)) << c.file << " has no kernel " << c.full;
        EXPECT_EQ(short_kernel_name(c.full), c.expected);
    }
}

TEST(KernelName, EveryFixtureKernelShortensToABareIdentifier) {
    const char* const files[] = {"kineto/hta_v100_ns_resolution_rank0.json.gz",
                                 "kineto/hta_inference_rank_1.json.gz",
                                 "nsys/pipit_a100x4_cloverleaf.sqlite"};
    for (const char* file : files) TOKENSCOPE_NEED_FIXTURE(file);
    for (const char* file : files) {
        const auto names = fixture_kernels(file);
        ASSERT_FALSE(names.empty()) << file;
        for (const auto& full : names) {
            const std::string s = short_kernel_name(full);
            EXPECT_FALSE(s.empty()) << full;
            EXPECT_EQ(s.find_first_of("<>() :,*&"), std::string::npos) << full << " -> " << s;
            EXPECT_NE(full.find(s), std::string::npos) << full << " -> " << s;
        }
    }
}

TEST(KernelName, NamesThatAreNoSignatureStayAsTheyAre) {
    EXPECT_EQ(short_kernel_name("Memcpy DtoD (Device -> Device)"),
              "Memcpy DtoD (Device -> Device)");
    EXPECT_EQ(short_kernel_name("gemv_split_k"), "gemv_split_k");
    EXPECT_EQ(short_kernel_name(""), "");
    // The operator of a wrapper, itself a template.
    EXPECT_EQ(
        short_kernel_name("void cutlass::Kernel2<cutlass::gemm::kernel::GemmUniversal<int, "
                          "float>>(cutlass::gemm::kernel::GemmUniversal<int, float>::Params)"),
        "GemmUniversal");
}

// Heatmap rows: three instantiations of one template read apart, the same kernel
// listed twice stays one name, and names that differ once shortened keep no suffix.
TEST(KernelName, DistinctShortNamesTellAlikeKernelsApart) {
    using tokenscope::analysis::distinct_short_kernel_names;
    const std::vector<std::string> full = {
        "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3>)",
        "volta_sgemm_64x64_nt",
        "void at::native::vectorized_elementwise_kernel<4, at::native::MulFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::MulFunctor<float>, "
        "at::detail::Array<char*, 3>)",
        "volta_sgemm_64x64_nt",
        "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, "
        "at::detail::Array<char*, 3>)",
    };
    const std::vector<std::string> expected = {
        "vectorized_elementwise_kernel #1", "volta_sgemm_64x64_nt",
        "vectorized_elementwise_kernel #2", "volta_sgemm_64x64_nt",
        "vectorized_elementwise_kernel #1"};
    EXPECT_EQ(distinct_short_kernel_names(full), expected);
    EXPECT_TRUE(distinct_short_kernel_names({}).empty());
}
