#include "trace/kernel_signature.h"

#include <gtest/gtest.h>

#include <string>

namespace tokenscope::trace {
namespace {

struct NameCase {
    const char* demangled;
    const char* head;       // signature_head
    const char* qualified;  // qualified_kernel_name
};

// Names as CUPTI and nsys demangle them: cuBLAS and cuBLASLt helpers from the device
// runs, our own anonymous-namespace kernels, nvjet's plain names, an undemangled one,
// a lambda inside ATen's template arguments, and a copy's text with a space before "(".
const NameCase kCases[] = {
    {"void splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, true, "
     "false, false>(cublasSplitKParams<float>, float const*, __nv_bfloat16 const*)",
     "void splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float, __nv_bfloat16, true, "
     "false, false>",
     "splitKreduce_kernel"},
    {"void cublasLt::epilogue::impl::globalKernel<8, 32, float, float, __nv_bfloat16, true, "
     "false>(int, int, long)",
     "void cublasLt::epilogue::impl::globalKernel<8, 32, float, float, __nv_bfloat16, true, "
     "false>",
     "cublasLt::epilogue::impl::globalKernel"},
    {"void (anonymous namespace)::rope_kernel<float>(float*)",
     "void (anonymous namespace)::rope_kernel<float>", "(anonymous namespace)::rope_kernel"},
    {"nvjet_hsh_64x64_64x8_2x1_v_bz_splitK_TNN", "nvjet_hsh_64x64_64x8_2x1_v_bz_splitK_TNN",
     "nvjet_hsh_64x64_64x8_2x1_v_bz_splitK_TNN"},
    {"_Z6kernelPf", "_Z6kernelPf", "_Z6kernelPf"},
    {"void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
     "namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}, "
     "at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::silu_kernel)",
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
     "namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}, "
     "at::detail::Array<char*, 2> >",
     "at::native::vectorized_elementwise_kernel"},
    {"Memcpy (Device -> Device)", "Memcpy ", "Memcpy (Device -> Device)"},
};

class KernelSignature : public testing::TestWithParam<NameCase> {};

TEST_P(KernelSignature, HeadEndsAtTheParameterList) {
    EXPECT_EQ(signature_head(GetParam().demangled), GetParam().head);
}

TEST_P(KernelSignature, QualifiedNameDropsReturnTypeTemplatesAndParameters) {
    EXPECT_EQ(qualified_kernel_name(GetParam().demangled), GetParam().qualified);
}

INSTANTIATE_TEST_SUITE_P(DemangledNames, KernelSignature, testing::ValuesIn(kCases));

}  // namespace
}  // namespace tokenscope::trace
