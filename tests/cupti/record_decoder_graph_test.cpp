// CUDA graphs in CUPTI records: kernels and memsets a cudaGraphLaunch ran carry its
// correlation id and their graphId/graphNodeId; the decoder keeps the node of each and
// the plan matcher names a graph's kernels by their order in it. Hand-made records.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "capture/cupti/kernel_plan_matcher.h"
#include "capture/cupti/record_decoder.h"
#include "capture/memory_run_writer.h"
#include "cupti_records.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;

constexpr std::uint32_t kGraphLaunch = CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000;
constexpr std::uint32_t kLaunch = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
constexpr std::uint32_t kGraph = 5, kCall = 50, kEager = 60;

KernelRecord graph_kernel(std::uint64_t start, std::uint64_t node, const char* name = "gemv") {
    KernelRecord r = kernel(start, start + 100, 7, kCall, name);
    r.graphId = kGraph;
    r.graphNodeId = node;
    r.gridX = r.gridY = r.gridZ = 1;
    r.blockX = 128, r.blockY = r.blockZ = 1;
    return r;
}

MemsetRecord graph_memset(std::uint64_t start, std::uint64_t node) {
    MemsetRecord r{};
    r.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    r.start = start;
    r.end = start + 50;
    r.bytes = 256;
    r.contextId = 1;
    r.streamId = 7;
    r.correlationId = kCall;
    r.graphId = kGraph;
    r.graphNodeId = node;
    return r;
}

const trace::Diagnostic* diagnostic(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

TEST(RecordDecoderGraph, GraphWorkKeepsItsNodeAndItsLaunchCall) {
    MemoryRunWriter writer;
    RecordDecoder decoder{writer, DecoderOptions{"", false, 4242}};
    const auto call = api(CUPTI_ACTIVITY_KIND_RUNTIME, kGraphLaunch, 1000, 1040, 1, kCall);
    const auto k1 = graph_kernel(2000, 1001), k2 = graph_kernel(2200, 1002),
               k3 = graph_kernel(2400, 1003);
    const auto ms = graph_memset(2600, 1004);
    const auto eager_call = api(CUPTI_ACTIVITY_KIND_RUNTIME, kLaunch, 3000, 3010, 1, kEager);
    KernelRecord eager = kernel(3100, 3200, 7, kEager, "eager");
    eager.blockX = 32;
    // Kernel records may precede their call's record.
    decoder.decode(as_record(k2));
    decoder.decode(as_record(call));
    for (const CUpti_Activity* r :
         {as_record(k1), as_record(k3), as_record(ms), as_record(eager_call), as_record(eager)})
        decoder.decode(r);
    decoder.finish();
    writer.finish();
    const auto& run = writer.data();

    ASSERT_EQ(run.graphs.size(), 4u);
    std::map<std::int64_t, std::uint64_t> node_at;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel && a.kind != trace::ActivityKind::Memset)
            continue;
        auto node = run.graphs.find(a);
        if (a.correlation == kEager) {
            EXPECT_FALSE(node.has_value());
            continue;
        }
        EXPECT_EQ(a.correlation, kCall);  // linked to the one cudaGraphLaunch
        ASSERT_TRUE(node.has_value()) << a.start_ns;
        EXPECT_EQ(node->graph_id, kGraph);
        node_at[a.start_ns] = node->node_id;
    }
    EXPECT_EQ(node_at, (std::map<std::int64_t, std::uint64_t>{
                           {2000, 1001}, {2200, 1002}, {2400, 1003}, {2600, 1004}}));
    // The graph's kernels share one correlation: no launch facts for them, the eager
    // kernel keeps its own.
    EXPECT_FALSE(run.launches.find(kCall).has_value());
    ASSERT_TRUE(run.launches.find(kEager).has_value());
    EXPECT_EQ(run.launches.find(kEager)->block[0], 32u);
    const auto* d = diagnostic(run, "cuda_graph_activities");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 4.0);
}

TEST(RecordDecoderGraph, PlanMatcherNamesAGraphsKernelsInTheirOrder) {
    MemoryRunWriter writer;
    KernelPlanMatcher matcher;
    RecordDecoder decoder{writer, DecoderOptions{"", false, 4242, &matcher}};
    // One iteration window [900, 5000] holding one cudaGraphLaunch of three kernels,
    // whose records arrive out of order, two before the call's.
    matcher.add_window(900, 5000,
                       {{"embedding", 10, 100}, {"qkv_proj", 20, 200}, {"lm_head", 30, 300}});
    const auto call = api(CUPTI_ACTIVITY_KIND_RUNTIME, kGraphLaunch, 1000, 1040, 1, kCall);
    const auto k1 = graph_kernel(2000, 1), k2 = graph_kernel(2200, 2), k3 = graph_kernel(2400, 3);
    decoder.decode(as_record(k3));
    decoder.decode(as_record(k1));
    decoder.decode(as_record(call));
    decoder.decode(as_record(k2));
    decoder.settle_kernels();
    decoder.finish();
    writer.finish();
    const auto& run = writer.data();
    std::map<std::int64_t, std::string> names;
    for (const auto& a : run.activities)
        if (a.kind == trace::ActivityKind::Kernel) names[a.start_ns] = std::string(run.name_of(a));
    EXPECT_EQ(names, (std::map<std::int64_t, std::string>{
                         {2000, "embedding"}, {2200, "qkv_proj"}, {2400, "lm_head"}}));
    EXPECT_EQ(matcher.matched(), 3);
    EXPECT_EQ(matcher.unmatched(), 0);
}

}  // namespace
}  // namespace tokenscope::capture::cupti
