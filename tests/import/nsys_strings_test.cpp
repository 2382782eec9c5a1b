// The nsys export's spelling of anonymous namespaces, as Nsight Systems 2025.3 wrote it
// for tokenscope-gpu-decode's kernels on an H200 (tests/gpu/run.sh), made CUPTI's.
#include <gtest/gtest.h>

#include "import/nsys/nsys_strings.h"

namespace tokenscope::import {
namespace {

TEST(NsysStrings, AnonymousNamespacesTakeCuptisSpelling) {
    EXPECT_EQ(anonymous_namespace_spelling(
                  "void tokenscope::kernels::cuda::<unnamed>::rope_kernel<__nv_bfloat16>("
                  "const T1 *, tokenscope::kernels::cuda::AttentionShape)"),
              "void tokenscope::kernels::cuda::(anonymous namespace)::rope_kernel<"
              "__nv_bfloat16>(const T1 *, tokenscope::kernels::cuda::AttentionShape)");
    EXPECT_EQ(anonymous_namespace_spelling("<unnamed>::k(int)"), "(anonymous namespace)::k(int)");
    EXPECT_EQ(anonymous_namespace_spelling("a::<unnamed>::b::<unnamed>::k"),
              "a::(anonymous namespace)::b::(anonymous namespace)::k");
    // Not a scope of its own: left as written.
    EXPECT_EQ(anonymous_namespace_spelling("f<<unnamed>::T>"), "f<<unnamed>::T>");
    EXPECT_EQ(anonymous_namespace_spelling("ampere_sgemm_128x64_nn"), "ampere_sgemm_128x64_nn");
}

}  // namespace
}  // namespace tokenscope::import
