// Heatmap rows by kernel role (docs/heatmap.md): two engines whose kernels are named
// differently (cuBLAS on an H100, Tensile's Cijk_* on an MI300X) compare on the rows both
// have. Kernel names below are real ones from the fixtures and the engines' code.
#include <gtest/gtest.h>

#include "analysis/heatmap/heatmap.h"
#include "analysis/run_kind.h"

namespace tokenscope::analysis {
namespace {

constexpr const char* kCublas = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64";
constexpr const char* kTensile =
    "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1";
constexpr const char* kFlash = "flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits>";
constexpr const char* kPaged = "paged_attention_ll4mi_QKV_mfma16_kernel";
constexpr const char* kAllReduce = "void vllm::cross_device_reduce_1stage<__nv_bfloat16, 4>";

void add_kernel(trace::RunData& run, std::string_view name, std::int64_t start, std::int64_t end) {
    trace::Activity a;
    a.kind = trace::ActivityKind::Kernel;
    a.name = run.strings.intern(name);
    a.start_ns = start;
    a.end_ns = end;
    run.activities.push_back(a);
}

trace::RunData trace_run(const char* gemm, const char* attention, bool all_reduce) {
    trace::RunData run;
    run.info.source = trace::Source::Kineto;
    // Two windows of 10 us: GEMMs of 3 and 5 us in the first, 4 us in the second.
    add_kernel(run, gemm, 0, 3000);
    add_kernel(run, attention, 3000, 4000);
    add_kernel(run, gemm, 4000, 9000);
    add_kernel(run, gemm, 10000, 14000);
    add_kernel(run, attention, 14000, 16000);
    if (all_reduce) add_kernel(run, kAllReduce, 16000, 16500);
    return run;
}

HeatmapSpec role_spec() {
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Role;
    spec.metric = HeatmapMetric::KernelDuration;
    spec.window = WindowKind::Time;
    spec.window_size = 10'000;
    spec.origin_ns = 0;
    return spec;
}

TEST(RoleHeatmap, RowsAreRolesInRoleOrderWithTheirP95) {
    const Heatmap h = compute_heatmap(trace_run(kCublas, kFlash, true), role_spec());
    ASSERT_EQ(h.row_labels, (std::vector<std::string>{"GEMM", "Attention", "Communication"}));
    ASSERT_EQ(h.column_count(), 2u);
    // GEMM, window 0: durations 3000 and 5000; P95 by linear interpolation
    // = 3000 + 0.95 * 2000 = 4900. Window 1: one GEMM of 4000.
    EXPECT_DOUBLE_EQ(*h.at(0, 0).value, 4900.0);
    EXPECT_EQ(h.at(0, 0).count, 2);
    EXPECT_DOUBLE_EQ(*h.at(0, 1).value, 4000.0);
    EXPECT_DOUBLE_EQ(*h.at(1, 1).value, 2000.0);
    EXPECT_FALSE(h.at(2, 0).value.has_value());  // blank, not 0
    EXPECT_DOUBLE_EQ(*h.at(2, 1).value, 500.0);
}

TEST(RoleHeatmap, TwoEnginesWithDifferentKernelNamesCompareByRole) {
    const auto h100 = trace_run(kCublas, kFlash, false);
    const auto mi300x = trace_run(kTensile, kPaged, false);
    EXPECT_DOUBLE_EQ(shared_kernel_name_share(h100, mi300x), 0.0);
    EXPECT_EQ(default_compare_spec(h100, mi300x).rows, HeatmapRows::Role);
    // Without steps the windows stay in time; with steps they are iterations.
    EXPECT_EQ(default_compare_spec(h100, mi300x).window, WindowKind::Time);
    auto a = h100, b = mi300x;
    for (int i = 0; i < 40; ++i) {
        a.steps.push_back({0, i, trace::Phase::Iteration, i * 100, i * 100 + 90, 0});
        if (i < 3) b.steps.push_back({0, i, trace::Phase::Iteration, i * 100, i * 100 + 90, 0});
    }
    EXPECT_EQ(default_compare_spec(a, b).window, WindowKind::Steps);
    EXPECT_EQ(default_compare_spec(a, b).window_size, 3);  // 40 iterations: 16 columns or so
    a.steps.resize(5);
    EXPECT_EQ(default_compare_spec(a, b).window_size, 1);
    // Same rows on both sides: the B - A heatmap has something to subtract.
    EXPECT_EQ(compute_heatmap(h100, role_spec()).row_labels,
              compute_heatmap(mi300x, role_spec()).row_labels);
    // One engine before and after: its kernels keep their names, and their rows.
    const auto again = trace_run(kCublas, kFlash, true);
    EXPECT_DOUBLE_EQ(shared_kernel_name_share(h100, again), 1.0);
    EXPECT_EQ(default_compare_spec(h100, again).rows, HeatmapRows::Kernel);
}

TEST(RoleHeatmap, NameAndParse) {
    EXPECT_EQ(to_string(HeatmapRows::Role), "role");
    EXPECT_EQ(heatmap_rows_from_string("role"), HeatmapRows::Role);
    EXPECT_TRUE(kernel_metric_rows(HeatmapRows::Role));
    HeatmapSpec step = role_spec();
    step.metric = HeatmapMetric::StepLatency;
    EXPECT_THROW(compute_heatmap(trace_run(kCublas, kFlash, false), step), std::invalid_argument);
}

}  // namespace
}  // namespace tokenscope::analysis
