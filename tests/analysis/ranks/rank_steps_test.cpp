// Hand-built two-rank steps: straggler, lateness, overlap and per-rank attribution,
// each worked out in the comments; NCCL kernels as nvlink or pcie.
#include <gtest/gtest.h>

#include "analysis/attribution/attribution.h"
#include "analysis/heatmap/heatmap.h"
#include "analysis/ranks/rank_steps.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;
using trace::CopyKind;
using trace::LaneKind;

constexpr const char* kNccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgs)";

struct Builder {
    trace::RunData run;
    void lane(std::int32_t rank) {
        run.lanes.push_back({LaneKind::GpuStream, 0, 100 + rank, 7, "stream 7", rank});
    }
    void kernel(std::uint16_t lane, const char* name, std::int64_t t0, std::int64_t t1) {
        run.activities.push_back({t0, t1, 0, 0, run.strings.intern(name), 0, lane,
                                  ActivityKind::Kernel, CopyKind::None});
    }
};

trace::RunData two_ranks() {
    Builder b;
    b.run.info.gpu.nvlink_links = 12;
    b.lane(0);  // lane 0
    b.lane(1);  // lane 1
    // Step 0 [0, 1000): rank 0 reaches the all-reduce at 400, rank 1 at 550; both end at 900.
    b.kernel(0, "gemm", 0, 400);
    b.kernel(0, kNccl, 400, 900);
    b.kernel(0, "gemm_small", 600, 700);  // overlaps rank 0's collective by 100
    b.kernel(1, "gemm", 0, 550);
    b.kernel(1, kNccl, 550, 900);
    // Step 1 [1000, 2000): no collective; rank 1's GPU finishes 400 later.
    b.kernel(0, "gemm", 1000, 1300);
    b.kernel(1, "gemm", 1000, 1700);
    b.run.steps = {{0, 0, trace::Phase::Iteration, 0, 1000, 0},
                   {0, 1, trace::Phase::Iteration, 1000, 2000, 0}};
    return b.run;
}

TEST(RankSteps, StragglerLatenessAndOverlap) {
    const trace::RunData run = two_ranks();
    EXPECT_EQ(run_ranks(run), (std::vector<std::int32_t>{0, 1}));
    auto steps = rank_steps(run);
    ASSERT_EQ(steps.size(), 2u);

    const StepRanks& s0 = steps[0];
    EXPECT_EQ(s0.basis, StragglerBasis::Collectives);
    EXPECT_EQ(s0.straggler, 1);
    EXPECT_EQ(s0.lateness_ns, 150);  // 550 - 400
    ASSERT_EQ(s0.ranks.size(), 2u);
    EXPECT_EQ(s0.ranks[0].lateness_ns, 0);
    EXPECT_EQ(s0.ranks[0].comm_ns, 500);     // [400, 900)
    EXPECT_EQ(s0.ranks[0].overlap_ns, 100);  // gemm_small [600, 700)
    EXPECT_DOUBLE_EQ(s0.ranks[0].overlap_share(), 0.2);
    EXPECT_EQ(s0.ranks[1].comm_ns, 350);
    EXPECT_EQ(s0.ranks[1].overlap_ns, 0);

    // Rank 0: compute [0,400) + [600,700) = 500; nvlink [400,600) + [700,900) = 400; idle 100.
    const CategoryNs& a0 = s0.ranks[0].attribution.assigned;
    EXPECT_EQ(a0[static_cast<std::size_t>(Category::GpuCompute)], 500);
    EXPECT_EQ(a0[static_cast<std::size_t>(Category::Nvlink)], 400);
    EXPECT_EQ(a0[static_cast<std::size_t>(Category::Scheduling)], 100);
    EXPECT_EQ(s0.ranks[0].attribution.hidden[static_cast<std::size_t>(Category::Nvlink)], 100);
    // Rank 1: compute 550, nvlink 350, idle 100.
    const CategoryNs& a1 = s0.ranks[1].attribution.assigned;
    EXPECT_EQ(a1[static_cast<std::size_t>(Category::GpuCompute)], 550);
    EXPECT_EQ(a1[static_cast<std::size_t>(Category::Nvlink)], 350);
    EXPECT_EQ(a1[static_cast<std::size_t>(Category::Scheduling)], 100);

    const StepRanks& s1 = steps[1];
    EXPECT_EQ(s1.basis, StragglerBasis::GpuEnd);
    EXPECT_EQ(s1.straggler, 1);
    EXPECT_EQ(s1.lateness_ns, 400);  // 1700 - 1300
    EXPECT_EQ(s1.ranks[0].comm_ns, 0);
    EXPECT_EQ(s1.ranks[0].overlap_share(), 0.0);
}

TEST(RankSteps, NoStragglerWhenRanksArriveTogetherAndNoneForOneRank) {
    Builder b;
    b.lane(0);
    b.lane(1);
    b.kernel(0, kNccl, 100, 200);
    b.kernel(1, kNccl, 100, 200);
    b.run.steps = {{0, 0, trace::Phase::Iteration, 0, 300, 0}};
    auto steps = rank_steps(b.run);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].straggler, -1);
    EXPECT_EQ(steps[0].lateness_ns, 0);
    b.run.lanes[1].rank = 0;  // one rank only: nothing to compare
    EXPECT_TRUE(rank_steps(b.run).empty());
}

TEST(RankSteps, NcclKernelsAreNvlinkOnNvlinkSystemsElsePcie) {
    trace::RunData run = two_ranks();
    const trace::Activity& nccl = run.activities[1];
    ASSERT_EQ(run.name_of(nccl), kNccl);
    // "AllReduce" contains "reduce", a memory rule: the collective rule comes first.
    EXPECT_EQ(classify(nccl, run, {}), Category::Nvlink);
    run.info.gpu.nvlink_links = 0;
    EXPECT_EQ(classify(nccl, run, {}), Category::Pcie);
    EXPECT_EQ(classify(run.activities[0], run, {}), Category::GpuCompute);  // gemm stays
    // The whole step's attribution follows: rank 1's collective is now pcie.
    auto steps = rank_steps(run);
    EXPECT_EQ(steps[0].ranks[1].attribution.assigned[static_cast<std::size_t>(Category::Pcie)],
              350);
    EXPECT_EQ(steps[0].ranks[1].attribution.assigned[static_cast<std::size_t>(Category::Nvlink)],
              0);
}

TEST(RankSteps, HeatmapRowsByRank) {
    HeatmapSpec spec;
    spec.rows = HeatmapRows::Rank;
    spec.metric = HeatmapMetric::KernelDuration;
    spec.window_size = 1'000'000;  // one column holds every kernel
    const Heatmap map = compute_heatmap(two_ranks(), spec);
    ASSERT_EQ(map.row_labels, (std::vector<std::string>{"rank 0", "rank 1"}));
    ASSERT_EQ(map.column_count(), 1u);
    // Rank 0's kernels last 400, 500, 100, 300 ns: P95 by linear interpolation of the
    // sorted 100, 300, 400, 500 at 0.95 * 3 = 2.85 is 400 + 0.85 * 100 = 485.
    EXPECT_DOUBLE_EQ(*map.at(0, 0).value, 485.0);
    EXPECT_EQ(map.at(0, 0).count, 4);
    // Rank 1's 550, 350, 700: sorted 350, 550, 700 at 1.9 -> 550 + 0.9 * 150 = 685.
    EXPECT_DOUBLE_EQ(*map.at(1, 0).value, 685.0);
    spec.metric = HeatmapMetric::StepLatency;  // rank rows are kernel rows
    EXPECT_THROW(compute_heatmap(two_ranks(), spec), std::invalid_argument);
}

}  // namespace
}  // namespace tokenscope::analysis
