// The matching of traced kernels to the workload's KernelSpecs, fed synthetic CUPTI
// records through the decoder: a kernel finds its plan entry by the entry tag of its
// launch call (eager launches) or by its place in a graph launch inside an iteration
// window; library helper kernels are named after their entry and share its work.
#include "capture/cupti/kernel_plan_matcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "capture/cupti/record_decoder.h"
#include "capture/memory_run_writer.h"
#include "cupti_records.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;
using Spec = KernelPlanMatcher::Spec;

constexpr std::uint32_t kLaunch = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
constexpr std::uint32_t kDriverLaunch = CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
constexpr std::uint32_t kMemcpyAsync = CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020;

// Kernels by correlation id.
std::map<std::uint32_t, trace::Activity> kernels_of(const trace::RunData& run) {
    std::map<std::uint32_t, trace::Activity> out;
    for (const auto& a : run.activities)
        if (a.kind == trace::ActivityKind::Kernel) out[a.correlation] = a;
    return out;
}

const trace::Diagnostic* diagnostic(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

class KernelPlanMatcherTest : public ::testing::Test {
  protected:
    void launch(std::uint32_t cbid, std::uint64_t start, std::uint32_t correlation,
                CUpti_ActivityKind kind = CUPTI_ACTIVITY_KIND_RUNTIME) {
        const auto r = api(kind, cbid, start, start + 20, 1, correlation);
        decoder.decode(as_record(r));
    }
    void gpu_kernel(std::uint64_t start, std::uint32_t correlation, const char* name,
                    std::uint64_t length = 100) {
        const auto r = kernel(start, start + length, 7, correlation, name);
        decoder.decode(as_record(r));
    }
    void tag(std::uint32_t correlation, std::uint64_t entry_tag) {
        const auto r = external(correlation, entry_tag);
        decoder.decode(as_record(r));
    }
    const trace::RunData& finish() {
        decoder.finish();
        writer.finish();
        return writer.data();
    }
    MemoryRunWriter writer;
    KernelPlanMatcher matcher;
    RecordDecoder decoder{writer, DecoderOptions{"", false, 4242, &matcher}};
};

TEST_F(KernelPlanMatcherTest, KernelsTakeTheirSpecInLaunchOrderWhateverTheRecordOrder) {
    matcher.add_window(1000, 5000, {{"qkv_proj", 10, 20}, {"rope", 30, 40}});
    matcher.add_window(6000, 9000, {{"lm_head", 50, 60}});
    gpu_kernel(1400, 3, "rope_kernel");  // before its launch record and its sibling
    launch(kMemcpyAsync, 1050, 2);       // not a launch: claims nothing
    launch(kLaunch, 1300, 3);
    launch(kLaunch, 1100, 1);
    gpu_kernel(1200, 1, "gemv_kernel");
    launch(kDriverLaunch, 6100, 5, CUPTI_ACTIVITY_KIND_DRIVER);
    gpu_kernel(6200, 5, "gemv_kernel");
    launch(kLaunch, 500, 9);  // set-up work before the first iteration
    gpu_kernel(600, 9, "fill_kernel");
    const auto& run = finish();
    const auto k = kernels_of(run);
    ASSERT_EQ(k.size(), 4u);
    EXPECT_EQ(run.name_of(k.at(1)), "qkv_proj");
    EXPECT_EQ(k.at(1).flops, 10u);
    EXPECT_EQ(k.at(1).bytes, 20u);
    EXPECT_EQ(run.name_of(k.at(3)), "rope");
    EXPECT_EQ(k.at(3).flops, 30u);
    EXPECT_EQ(k.at(3).bytes, 40u);
    EXPECT_EQ(run.name_of(k.at(5)), "lm_head");
    EXPECT_EQ(k.at(5).flops, 50u);
    EXPECT_EQ(run.name_of(k.at(9)), "fill_kernel");
    EXPECT_EQ(k.at(9).flops, 0u);
    EXPECT_EQ(k.at(1).start_ns, 1200);  // times are the kernel's, not the launch's
    EXPECT_EQ(k.at(1).end_ns, 1300);
    const auto* joined = diagnostic(run, "kernels_joined_to_spec");
    ASSERT_NE(joined, nullptr);
    EXPECT_EQ(joined->value, 3.0);
    EXPECT_NE(joined->text.find("rope=rope_kernel"), std::string::npos) << joined->text;
    EXPECT_NE(joined->text.find("qkv_proj=gemv_kernel"), std::string::npos) << joined->text;
    const auto* unmatched = diagnostic(run, "kernels_without_spec");
    ASSERT_NE(unmatched, nullptr);
    EXPECT_EQ(unmatched->value, 1.0);
}

TEST_F(KernelPlanMatcherTest, AWindowWhoseKernelCountDiffersFromItsPlanMatchesNothing) {
    matcher.add_window(1000, 5000, {{"qkv_proj", 10, 20}, {"rope", 30, 40}});
    for (std::uint32_t c = 1; c <= 3; ++c) {
        launch(kLaunch, 1000 + 100 * c, c);
        gpu_kernel(2000 + 200 * c, c, "extra_kernel");
    }
    const auto& run = finish();
    const auto k = kernels_of(run);
    ASSERT_EQ(k.size(), 3u);
    for (const auto& [c, a] : k) {
        EXPECT_EQ(run.name_of(a), "extra_kernel");
        EXPECT_EQ(a.flops, 0u);
    }
    ASSERT_NE(diagnostic(run, "kernels_without_spec"), nullptr);
    EXPECT_EQ(diagnostic(run, "kernels_without_spec")->value, 3.0);
    EXPECT_EQ(diagnostic(run, "kernels_joined_to_spec")->value, 0.0);
}

TEST_F(KernelPlanMatcherTest, SettledKernelsAreWrittenBeforeTheRunEnds) {
    // The window comes from the driving thread after the iteration's records.
    launch(kLaunch, 1100, 1);
    gpu_kernel(1200, 1, "gemv_kernel");
    decoder.settle_kernels();
    EXPECT_EQ(matcher.waiting(), 1u);
    matcher.add_window(1000, 2000, {{"lm_head", 7, 8}});
    decoder.settle_kernels();
    EXPECT_EQ(matcher.waiting(), 0u);
    EXPECT_EQ(matcher.matched(), 1);
    writer.finish();
    const auto k = kernels_of(writer.data());
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(writer.data().name_of(k.at(1)), "lm_head");
    EXPECT_EQ(k.at(1).bytes, 8u);
}

TEST_F(KernelPlanMatcherTest, TaggedCallsNameLibraryHelpersAfterTheirEntryWhateverTheOrder) {
    // qkv_proj is a cuBLASLt call: a GEMM and a split-K reduction, each launched by its
    // own driver call; rope is ours. Launch times are deliberately out of plan order.
    matcher.add_window(1000, 9000, {{"qkv_proj", 4000, 800, 2}, {"rope", 30, 40, 1}}, 100);
    gpu_kernel(3000, 3, "void rope_kernel<__nv_bfloat16>(Args)", 50);
    gpu_kernel(2000, 2, "void splitKreduce_kernel<32, 16, int, float>(cublasSplitKParams<float>)",
               100);
    gpu_kernel(1500, 1, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x64x64", 300);
    tag(3, 101);
    launch(kLaunch, 1100, 3);  // rope's call, before the GEMM's
    launch(kDriverLaunch, 1300, 1, CUPTI_ACTIVITY_KIND_DRIVER);
    launch(kDriverLaunch, 1400, 2, CUPTI_ACTIVITY_KIND_DRIVER);
    tag(1, 100);
    decoder.settle_kernels();
    EXPECT_EQ(matcher.matched(), 0);  // the window waits for qkv_proj's second kernel's tag
    EXPECT_EQ(matcher.waiting(), 3u);
    tag(2, 100);
    decoder.settle_kernels();
    EXPECT_EQ(matcher.matched(), 3);
    EXPECT_EQ(matcher.helpers(), 1);
    EXPECT_EQ(matcher.waiting(), 0u);
    const auto& run = finish();
    const auto k = kernels_of(run);
    ASSERT_EQ(k.size(), 3u);
    EXPECT_EQ(run.name_of(k.at(1)), "qkv_proj");  // the longest kernel takes the name
    EXPECT_EQ(run.name_of(k.at(2)), "qkv_proj/splitKreduce_kernel");
    EXPECT_EQ(run.name_of(k.at(3)), "rope");
    // FLOPs and bytes split 3:1 by duration, summing to the plan's exactly.
    EXPECT_EQ(k.at(1).bytes, 600u);
    EXPECT_EQ(k.at(2).bytes, 200u);
    EXPECT_EQ(k.at(1).flops, 3000.0f);
    EXPECT_EQ(k.at(2).flops, 1000.0f);
    EXPECT_EQ(k.at(3).bytes, 40u);
    const auto* joined = diagnostic(run, "kernels_joined_to_spec");
    ASSERT_NE(joined, nullptr);
    EXPECT_EQ(joined->value, 3.0);
    EXPECT_NE(joined->text.find("1 of them library helper kernels"), std::string::npos)
        << joined->text;
    EXPECT_NE(joined->text.find("qkv_proj/splitKreduce_kernel=void splitKreduce_kernel"),
              std::string::npos)
        << joined->text;
    EXPECT_EQ(diagnostic(run, "kernels_without_spec"), nullptr);
}

TEST_F(KernelPlanMatcherTest, OtherToolsTagsAreNotEntryTags) {
    matcher.add_window(1000, 5000, {{"lm_head", 7, 8, 1}}, 10);
    launch(kLaunch, 1100, 1);
    const auto foreign = external(1, 10, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
    decoder.decode(as_record(foreign));
    gpu_kernel(1200, 1, "gemv_kernel");
    decoder.settle_kernels();
    EXPECT_EQ(matcher.matched(), 0);
    const auto& run = finish();
    // Untagged, the window cannot settle; at the end its kernel keeps the CUDA name.
    EXPECT_EQ(run.name_of(kernels_of(run).at(1)), "gemv_kernel");
    EXPECT_EQ(diagnostic(run, "kernels_without_spec")->value, 1.0);
}

TEST_F(KernelPlanMatcherTest, AtTheEndATaggedWindowMatchesWhatItHolds) {
    // The runner said two kernels for lm_head; only one came. finish() still names it.
    matcher.add_window(1000, 5000, {{"final_rms_norm", 1, 2, 1}, {"lm_head", 50, 60, 2}}, 7);
    launch(kLaunch, 1100, 1);
    tag(1, 7);
    gpu_kernel(1200, 1, "rms_norm_kernel");
    launch(kLaunch, 1300, 2);
    tag(2, 8);
    gpu_kernel(1400, 2, "gemm_kernel");
    decoder.settle_kernels();
    EXPECT_EQ(matcher.matched(), 0);
    const auto& run = finish();
    const auto k = kernels_of(run);
    EXPECT_EQ(run.name_of(k.at(1)), "final_rms_norm");
    EXPECT_EQ(run.name_of(k.at(2)), "lm_head");
    EXPECT_EQ(k.at(2).bytes, 60u);
    EXPECT_EQ(diagnostic(run, "kernels_without_spec"), nullptr);
}

TEST_F(KernelPlanMatcherTest, AKernelTaggedAfterItsWindowSettledKeepsItsName) {
    matcher.add_window(1000, 2000, {{"argmax", 1, 2, 1}}, 1);
    launch(kLaunch, 1100, 1);
    tag(1, 1);
    gpu_kernel(1200, 1, "argmax_kernel");
    matcher.add_window(3000, 4000, {{"argmax", 1, 2, 1}}, 2);
    decoder.settle_kernels();
    EXPECT_EQ(matcher.matched(), 1);
    launch(kLaunch, 1150, 5);  // an extra kernel of entry tag 1, after it settled
    tag(5, 1);
    gpu_kernel(1300, 5, "extra_kernel");
    decoder.settle_kernels();
    EXPECT_EQ(matcher.unmatched(), 1);
    const auto& run = finish();
    EXPECT_EQ(run.name_of(kernels_of(run).at(5)), "extra_kernel");
}

TEST_F(KernelPlanMatcherTest, AGraphLaunchIsCutIntoEntriesByTheirKernelCounts) {
    // One cudaGraphLaunch ran the whole iteration: every kernel shares its correlation.
    matcher.add_window(1000, 9000,
                       {{"attn_rms_norm", 4, 8, 1}, {"qkv_proj", 90, 100, 3}, {"rope", 1, 2, 1}});
    launch(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, 1100, 40);
    const char* names[] = {"rms_norm_kernel", "nvjet_gemm", "splitKreduce_kernel",
                           "cublasLt::epilogue::impl::globalKernel<8, 32>(Params)", "rope_kernel"};
    const std::uint64_t lengths[] = {10, 80, 10, 10, 10};
    for (int i = 4; i >= 0; --i) gpu_kernel(2000 + 100 * i, 40, names[i], lengths[i]);
    const auto& run = finish();
    std::vector<std::string> got;
    std::uint64_t qkv_bytes = 0;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        got.emplace_back(run.name_of(a));
        if (got.back().rfind("qkv_proj", 0) == 0) qkv_bytes += a.bytes;
    }
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<std::string>{"attn_rms_norm", "qkv_proj",
                                             "qkv_proj/cublasLt::epilogue::impl::globalKernel",
                                             "qkv_proj/splitKreduce_kernel", "rope"}));
    EXPECT_EQ(qkv_bytes, 100u);
    EXPECT_EQ(matcher.helpers(), 2);
}

TEST(KernelPlanMatcher, AddIterationTakesNamesFlopsAndBytesFromThePlan) {
    kernels::IterationPlan plan;
    plan.kernels.push_back({kernels::KernelOp::QkvProj, false, 0, 100, 30, 12});
    plan.kernels.push_back({kernels::KernelOp::QkvProj, true, 0, 5, 1, 2});
    KernelPlanMatcher matcher;
    matcher.add_iteration(plan, 0, 1000);
    trace::Activity a;
    a.kind = trace::ActivityKind::Kernel;
    a.correlation = 4;
    matcher.add_kernel(a);
    a.correlation = 6;
    matcher.add_kernel(a);
    matcher.add_launch(6, 300);
    matcher.add_launch(4, 200);
    std::vector<std::string> names;
    std::vector<trace::Activity> out;
    matcher.settle(
        [&](std::string_view n) {
            names.emplace_back(n);
            return static_cast<std::uint32_t>(names.size());
        },
        [&](const trace::Activity& k) { out.push_back(k); });
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].correlation, 4u);
    EXPECT_EQ(names[0], "qkv_proj");
    EXPECT_EQ(out[0].flops, 100u);
    EXPECT_EQ(out[0].bytes, 42u);
    EXPECT_EQ(names[1], "draft_qkv_proj");
    EXPECT_EQ(out[1].bytes, 3u);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
