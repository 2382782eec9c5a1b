// The join of traced kernels to the workload's KernelSpecs, fed synthetic CUPTI
// records through the decoder: launch API calls inside an iteration window give
// their kernels the spec's name, FLOPs and bytes in launch order.
#include "capture/cupti/kernel_spec_join.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "capture/cupti/record_decoder.h"
#include "capture/memory_run_writer.h"
#include "cupti_records.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;
using Spec = KernelSpecJoin::Spec;

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

class KernelSpecJoinTest : public ::testing::Test {
  protected:
    void launch(std::uint32_t cbid, std::uint64_t start, std::uint32_t correlation,
                CUpti_ActivityKind kind = CUPTI_ACTIVITY_KIND_RUNTIME) {
        const auto r = api(kind, cbid, start, start + 20, 1, correlation);
        decoder.decode(as_record(r));
    }
    void gpu_kernel(std::uint64_t start, std::uint32_t correlation, const char* name) {
        const auto r = kernel(start, start + 100, 7, correlation, name);
        decoder.decode(as_record(r));
    }
    const trace::RunData& finish() {
        decoder.finish();
        writer.finish();
        return writer.data();
    }
    MemoryRunWriter writer;
    KernelSpecJoin join;
    RecordDecoder decoder{writer, DecoderOptions{"", false, 4242, &join}};
};

TEST_F(KernelSpecJoinTest, KernelsTakeTheirSpecInLaunchOrderWhateverTheRecordOrder) {
    join.add_window(1000, 5000, {{"qkv_proj", 10, 20}, {"rope", 30, 40}});
    join.add_window(6000, 9000, {{"lm_head", 50, 60}});
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

TEST_F(KernelSpecJoinTest, AWindowWhoseKernelCountDiffersFromItsPlanJoinsNothing) {
    join.add_window(1000, 5000, {{"qkv_proj", 10, 20}, {"rope", 30, 40}});
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

TEST_F(KernelSpecJoinTest, SettledKernelsAreWrittenBeforeTheRunEnds) {
    // The window comes from the driving thread after the iteration's records.
    launch(kLaunch, 1100, 1);
    gpu_kernel(1200, 1, "gemv_kernel");
    decoder.settle_kernels();
    EXPECT_EQ(join.waiting(), 1u);
    join.add_window(1000, 2000, {{"lm_head", 7, 8}});
    decoder.settle_kernels();
    EXPECT_EQ(join.waiting(), 0u);
    EXPECT_EQ(join.joined(), 1);
    writer.finish();
    const auto k = kernels_of(writer.data());
    ASSERT_EQ(k.size(), 1u);
    EXPECT_EQ(writer.data().name_of(k.at(1)), "lm_head");
    EXPECT_EQ(k.at(1).bytes, 8u);
}

TEST(KernelSpecJoin, AddIterationTakesNamesFlopsAndBytesFromThePlan) {
    kernels::IterationPlan plan;
    plan.kernels.push_back({kernels::KernelOp::QkvProj, false, 0, 100, 30, 12});
    plan.kernels.push_back({kernels::KernelOp::QkvProj, true, 0, 5, 1, 2});
    KernelSpecJoin join;
    join.add_iteration(plan, 0, 1000);
    trace::Activity a;
    a.kind = trace::ActivityKind::Kernel;
    a.correlation = 4;
    join.add_kernel(a);
    a.correlation = 6;
    join.add_kernel(a);
    join.add_launch(6, 300);
    join.add_launch(4, 200);
    std::vector<std::string> names;
    std::vector<trace::Activity> out;
    join.settle(
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
