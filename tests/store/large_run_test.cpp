// bench/make_large_run's generator (issue 24) at a test's size: the file holds what was
// asked, as an engine's trace is shaped, and the truths it planted are there to find,
// measured here from the activities read back, not from the generator's figures.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "make_large_run.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "support/temp_dir.h"

namespace tokenscope::bench {
namespace {

struct Written {
    LargeRunTruth truth;
    trace::RunData run;
    std::string path;
};

Written write(const test::TempDir& dir, const LargeRunOptions& opt) {
    const std::string path = dir.file("large-" + std::to_string(opt.seed) + ".tokenscope");
    Written w;
    {
        store::StoreWriter writer(path);
        trace::RunInfo info;
        info.name = "large";
        auto out = writer.begin_run(info);
        w.truth = LargeRunGenerator(*out, opt).run();
        out->finish();
    }
    store::StoreReader reader(path);
    w.run = reader.load_run(reader.run_ids().at(0));
    w.path = path;
    return w;
}

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

class LargeRun : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new test::TempDir;
        LargeRunOptions opt;
        opt.activities = 300'000;
        opt.gpus = 4;
        opt.seed = 7;  // straggler 7 % 4 = GPU 3
        written_ = new Written(write(*dir_, opt));
    }
    static void TearDownTestSuite() {
        delete written_;
        delete dir_;
    }
    static const trace::RunData& run() { return written_->run; }
    static const LargeRunTruth& truth() { return written_->truth; }
    // The iteration whose step holds `t` (steps are back to back, in order).
    static std::int64_t iteration_at(std::int64_t t) {
        const auto& steps = run().steps;
        auto it =
            std::upper_bound(steps.begin(), steps.end(), t,
                             [](std::int64_t v, const trace::Step& s) { return v < s.start_ns; });
        return it == steps.begin() ? -1 : std::prev(it)->index;
    }
    static bool slow(std::int64_t iteration) {
        return iteration >= truth().slow_first && iteration <= truth().slow_last;
    }

    static inline test::TempDir* dir_ = nullptr;
    static inline Written* written_ = nullptr;
};

TEST_F(LargeRun, HoldsExactlyTheActivitiesAskedForOnFourLanesPerGpu) {
    EXPECT_EQ(run().activities.size(), 300'000u);
    EXPECT_EQ(truth().activities, 300'000u);
    ASSERT_EQ(run().lanes.size(), 16u);
    std::map<trace::LaneKind, int> kinds;
    for (const auto& l : run().lanes) ++kinds[l.kind];
    EXPECT_EQ(kinds[trace::LaneKind::CpuThread], 4);
    EXPECT_EQ(kinds[trace::LaneKind::GpuStream], 8);
    EXPECT_EQ(kinds[trace::LaneKind::CopyEngine], 4);
    EXPECT_EQ(static_cast<std::int64_t>(run().steps.size()), truth().iterations);
    // 80 layers of 11 kernels on 4 GPUs, plus launches: about 3.6 k activities a decode.
    EXPECT_GT(truth().iterations, 60);
    EXPECT_LT(truth().iterations, 90);
}

// A stream runs one kernel at a time; the GPU's work follows its launch.
TEST_F(LargeRun, StreamsDoNotOverlapAndEveryGpuOperationHasItsLaunch) {
    std::vector<std::int64_t> free_at(run().lanes.size(), INT64_MIN);
    std::map<std::pair<std::int32_t, std::uint32_t>, std::int64_t> api_start;  // (rank, corr)
    for (const auto& a : run().activities)
        if (a.kind == trace::ActivityKind::Api)
            api_start.emplace(std::pair{run().lanes[a.lane].rank, a.correlation}, a.start_ns);
    std::size_t eager = 0;
    for (const auto& a : run().activities) {
        if (!trace::is_gpu_operation(a.kind)) continue;
        ASSERT_GE(a.start_ns, free_at[a.lane]) << run().lanes[a.lane].name;
        free_at[a.lane] = a.end_ns;
        auto api = api_start.find({run().lanes[a.lane].rank, a.correlation});
        ASSERT_NE(api, api_start.end()) << run().name_of(a);
        EXPECT_GE(a.start_ns, api->second);
        if (a.kind == trace::ActivityKind::Kernel && run().launches.find(a.correlation)) ++eager;
    }
    // Prefills and sampling launch eagerly, with launch facts, one per kernel.
    EXPECT_GT(eager, 0u);
    EXPECT_EQ(eager, run().launches.size());
}

// Decodes replay a graph: all of a decode's kernels on a rank share one correlation.
TEST_F(LargeRun, DecodeKernelsShareTheirGraphLaunch) {
    const std::uint32_t graph_launch = [] {
        for (std::uint32_t id = 1; id < run().strings.size(); ++id)
            if (run().strings.str(id) == "cudaGraphLaunch") return id;
        return 0u;
    }();
    ASSERT_NE(graph_launch, 0u);
    std::set<std::pair<std::int32_t, std::uint32_t>> graphs;
    for (const auto& a : run().activities)
        if (a.name == graph_launch) graphs.insert({run().lanes[a.lane].rank, a.correlation});
    std::map<std::pair<std::int32_t, std::uint32_t>, int> kernels_per_graph;
    for (const auto& a : run().activities)
        if (a.kind == trace::ActivityKind::Kernel &&
            graphs.count({run().lanes[a.lane].rank, a.correlation}))
            ++kernels_per_graph[{run().lanes[a.lane].rank, a.correlation}];
    ASSERT_FALSE(kernels_per_graph.empty());
    // 80 layers x 11 kernels and the LM head; the last decode may be cut.
    int whole = 0;
    for (const auto& [key, n] : kernels_per_graph) whole += n == 80 * 11 + 1;
    EXPECT_GE(whole, static_cast<int>(kernels_per_graph.size()) - 4);
}

// GPU 3's GEMMs take 1.3 times as long as the other GPUs' (decodes outside the slow
// window, where every GPU runs the same kernels).
TEST_F(LargeRun, StragglerGemmsAreSlowerByThePlantedFactor) {
    ASSERT_EQ(truth().straggler_gpu, 3);
    std::vector<double> gemm_ns(4, 0);
    for (const auto& a : run().activities) {
        if (a.kind != trace::ActivityKind::Kernel || !contains(run().name_of(a), "gemm")) continue;
        if (contains(run().name_of(a), "tilesize128x256")) continue;  // the LM head: not planted
        const std::int64_t it = iteration_at(a.start_ns);
        if (it % 16 == 0 || slow(it)) continue;
        gemm_ns[static_cast<std::size_t>(run().device_of(a))] +=
            static_cast<double>(a.duration_ns());
    }
    const double others = (gemm_ns[0] + gemm_ns[1] + gemm_ns[2]) / 3;
    EXPECT_NEAR(gemm_ns[3] / others, 1.3, 0.02);
    EXPECT_NEAR(gemm_ns[0] / gemm_ns[1], 1.0, 0.02);
}

// Every all-reduce ends on all GPUs together; the straggler arrives last and waits least.
TEST_F(LargeRun, StragglerArrivesLastAtTheAllReduces) {
    std::map<std::int64_t, std::vector<const trace::Activity*>> by_end;
    for (const auto& a : run().activities)
        if (contains(run().name_of(a), "AllReduce")) by_end[a.end_ns].push_back(&a);
    int complete = 0, straggler_last = 0;
    std::vector<double> wait(4, 0);
    for (const auto& [end, group] : by_end) {
        if (group.size() != 4) continue;  // the cut iteration's last layer
        ++complete;
        const auto* last = *std::max_element(
            group.begin(), group.end(), [](auto* x, auto* y) { return x->start_ns < y->start_ns; });
        straggler_last += run().device_of(*last) == 3;
        for (const auto* a : group)
            wait[static_cast<std::size_t>(run().device_of(*a))] +=
                static_cast<double>(a->duration_ns());
    }
    EXPECT_GT(complete, 80 * 60);
    EXPECT_GE(straggler_last, complete * 95 / 100);
    for (int g = 0; g < 3; ++g) EXPECT_GT(wait[static_cast<std::size_t>(g)], 2 * wait[3]) << g;
}

// Kernels in the slow window's iterations take 1.5 times as long; their steps are the
// window's, and longer by most of that (the launches and gaps around kernels are not slowed).
TEST_F(LargeRun, SlowWindowKernelsAreSlowerByThePlantedFactor) {
    double kernel_ns[2] = {0, 0};
    int kernels[2] = {0, 0};
    for (const auto& a : run().activities) {
        if (a.kind != trace::ActivityKind::Kernel || contains(run().name_of(a), "AllReduce") ||
            run().device_of(a) == 3)
            continue;
        const std::int64_t it = iteration_at(a.start_ns);
        if (it % 16 == 0 || it + 1 == truth().iterations) continue;
        kernel_ns[slow(it)] += static_cast<double>(a.duration_ns());
        ++kernels[slow(it)];
    }
    ASSERT_GT(kernels[1], 800 * 3 * 4);
    EXPECT_NEAR((kernel_ns[1] / kernels[1]) / (kernel_ns[0] / kernels[0]), 1.5, 0.02);
    double step_ns[2] = {0, 0};
    int steps[2] = {0, 0}, in_window = 0;
    for (const auto& s : run().steps) {
        if (s.start_ns >= truth().slow_begin_ns && s.end_ns <= truth().slow_end_ns) ++in_window;
        if (s.phase != trace::Phase::Decode || s.index + 1 == truth().iterations) continue;
        step_ns[slow(s.index)] += static_cast<double>(s.duration_ns());
        ++steps[slow(s.index)];
    }
    EXPECT_EQ(in_window, truth().slow_last - truth().slow_first + 1);
    EXPECT_GT((step_ns[1] / steps[1]) / (step_ns[0] / steps[0]), 1.35);
}

// The summaries written in the same pass hold every lane's activities: at each level
// their busy time adds up to the lane's activity time, their counts to its activities.
TEST_F(LargeRun, SummariesAddUpToEveryLanesActivities) {
    std::vector<std::int64_t> busy(run().lanes.size()), count(run().lanes.size());
    std::int64_t end = 0;
    for (const auto& a : run().activities) {
        busy[a.lane] += a.duration_ns(), ++count[a.lane];
        end = std::max(end, a.end_ns);
    }
    store::StoreReader reader(written_->path);
    const std::int64_t id = reader.run_ids().at(0);
    ASSERT_TRUE(reader.has_summaries(id));
    for (std::uint16_t lane = 0; lane < run().lanes.size(); ++lane) {
        const auto levels = reader.summary_levels(id, lane);
        ASSERT_GE(levels.size(), 3u);
        for (const auto& level : levels) {
            if (level.bin_log2() < 16) continue;  // the finest ones over the whole run: big
            std::int64_t got_busy = 0, got_count = 0;
            for (const auto& b : reader.summary_bins(id, lane, level.level, 0, end + 1))
                got_busy += b.busy_ns, got_count += b.count;
            EXPECT_EQ(got_busy, busy[lane]) << run().lanes[lane].name << " level " << level.level;
            EXPECT_EQ(got_count, count[lane]) << run().lanes[lane].name << " level " << level.level;
        }
    }
}

// The run follows from its seed alone.
TEST(LargeRunSeed, SameSeedSameRunOtherSeedOtherStraggler) {
    test::TempDir dir;
    LargeRunOptions opt;
    opt.activities = 20'000;
    opt.gpus = 2;
    opt.layers = 4;
    opt.seed = 4;
    const Written a = write(dir, opt);
    const Written b = write(dir, opt);
    EXPECT_EQ(a.run.activities, b.run.activities);
    EXPECT_EQ(a.run.steps, b.run.steps);
    opt.seed = 5;
    const Written c = write(dir, opt);
    EXPECT_NE(a.truth.straggler_gpu, c.truth.straggler_gpu);
    EXPECT_NE(a.run.activities, c.run.activities);
}

}  // namespace
}  // namespace tokenscope::bench
