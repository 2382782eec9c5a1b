// Per-rank Kineto files written here with a known clock skew: the merge must put
// every event back at its true time (within 1 us), from the files' start times
// (baseTimeNanoseconds) and, without them, from the ends of the same NCCL collective.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "import/kineto/kineto_importer.h"
#include "import/merge/merge_ranks.h"
#include "kineto_test_util.h"
#include "support/rank_kineto.h"

namespace {

using tokenscope::import::ClockAlignment;
using tokenscope::import::KinetoImporter;
using tokenscope::import::merge_ranks;
using tokenscope::import::MergeError;
using tokenscope::import::MergeOptions;
using tokenscope::trace::RunData;

using namespace tokenscope::test::rank_kineto;

RunData import_rank(int r, std::int64_t zero, bool base, const std::string& tag) {
    std::string path = kineto_test::write_file(tag + "_rank" + std::to_string(r) + ".json",
                                               rank_file(r, zero, base));
    return KinetoImporter().import(path, {}, {});
}

// The merged start of rank r's gemm of step k.
std::int64_t merged_gemm_start(const RunData& run, int r, int k) {
    int seen = 0;
    for (const auto& a : run.activities)
        if (run.name_of(a) == "gemm" && run.lanes[a.lane].rank == r && seen++ == k)
            return a.start_ns;
    ADD_FAILURE() << "no gemm " << k << " of rank " << r;
    return 0;
}

const tokenscope::trace::Diagnostic* offset_of(const RunData& run, int rank) {
    const std::string prefix = "rank " + std::to_string(rank) + " ";
    for (const auto& d : run.diagnostics)
        if (d.name == "merge_clock_offset" && d.text.rfind(prefix, 0) == 0) return &d;
    return nullptr;
}

TEST(RankMerge, ImporterReadsRankAndOrigin) {
    RunData r1 = import_rank(1, kT0 - 5'000'000, true, "ro");
    ASSERT_FALSE(r1.lanes.empty());
    for (const auto& l : r1.lanes) EXPECT_EQ(l.rank, 1) << l.name;
    // Times are UTC once the base is added, so the run's zero is the epoch.
    EXPECT_EQ(r1.info.origin_utc_ns, 0);
    RunData nobase = import_rank(0, kT0, false, "ro");
    EXPECT_FALSE(nobase.info.origin_utc_ns);
}

TEST(RankMerge, StartTimesPutEveryRankOnItsTrueTime) {
    // Different bases (1.234567 ms apart): the files' ts differ, the true times do not.
    std::vector<RunData> ranks;
    ranks.push_back(import_rank(1, kT0 - 3'000'000 + 1'234'567, true, "st"));
    ranks.push_back(import_rank(0, kT0 - 3'000'000, true, "st"));
    RunData merged = merge_ranks(std::move(ranks));
    for (int r = 0; r < 2; ++r)
        for (int k = 0; k < kSteps; ++k)
            EXPECT_NEAR(merged_gemm_start(merged, r, k), step_start(k) + 20'000, 1000);
    ASSERT_NE(offset_of(merged, 1), nullptr);
    EXPECT_NE(offset_of(merged, 1)->text.find("start times"), std::string::npos);
    // Steps are rank 0's (the reference, though given second), 10 of them.
    EXPECT_EQ(merged.steps.size(), static_cast<std::size_t>(kSteps));
    EXPECT_EQ(merged.steps[0].start_ns, step_start(0));
    // The collectives then agree to the nanosecond: the residual is ~0.
    bool residual = false;
    for (const auto& d : merged.diagnostics)
        if (d.name == "merge_clock_residual") {
            residual = true;
            EXPECT_LT(d.value, 1000.0);
        }
    EXPECT_TRUE(residual);
}

TEST(RankMerge, CollectiveEndsRecoverTheSkew) {
    // No base time: each rank's ts count from its own zero, 3.217654 ms apart.
    const std::int64_t zero0 = kT0 - 1'000'000, zero1 = kT0 - 1'000'000 - 3'217'654;
    std::vector<RunData> ranks;
    ranks.push_back(import_rank(0, zero0, false, "ce"));
    ranks.push_back(import_rank(1, zero1, false, "ce"));
    auto clocks = tokenscope::import::fit_rank_clocks(ranks);
    ASSERT_EQ(clocks.size(), 2u);
    EXPECT_EQ(clocks[1].method, ClockAlignment::Collectives);
    // Rank 1's time t1 = true - zero1; on rank 0's clock: true - zero0 = t1 + (zero1 - zero0).
    EXPECT_NEAR(clocks[1].offset_ns, zero1 - zero0, 1000);
    EXPECT_EQ(clocks[1].matched, kSteps);
    RunData merged = merge_ranks(std::move(ranks));
    for (int k = 0; k < kSteps; ++k)
        EXPECT_NEAR(merged_gemm_start(merged, 1, k), step_start(k) + 20'000 - zero0, 1000);
    ASSERT_NE(offset_of(merged, 1), nullptr);
    EXPECT_NEAR(offset_of(merged, 1)->value, static_cast<double>(zero1 - zero0), 1000.0);
    EXPECT_NE(offset_of(merged, 1)->text.find("NCCL"), std::string::npos);
}

TEST(RankMerge, CollectivesFoundWhenOneProfilerStartedLater) {
    // Rank 1's file lacks the first two steps: the k-th collective of rank 1 is the
    // (k+2)-th of rank 0, and the fit must still find the true offset.
    const std::int64_t zero0 = kT0, zero1 = kT0 + 777'777;
    RunData r0 = import_rank(0, zero0, false, "late");
    RunData r1 = import_rank(1, zero1, false, "late");
    std::erase_if(r1.activities, [&](const tokenscope::trace::Activity& a) {
        return a.start_ns < step_start(2) - zero1;
    });
    auto clocks = tokenscope::import::fit_rank_clocks({r0, r1});
    EXPECT_NEAR(clocks[1].offset_ns, zero1 - zero0, 1000);
    EXPECT_EQ(clocks[1].matched, kSteps - 2);
}

TEST(RankMerge, StartTimesFromOriginsAndRenumberedCorrelations) {
    // nsys-like runs: times count from each file's session start (origin).
    RunData a, b;
    for (RunData* run : {&a, &b}) {
        run->lanes = {{tokenscope::trace::LaneKind::GpuStream, 0, 1, 7, "GPU 0 stream 7"}};
        std::uint32_t name = run->strings.intern(run == &a ? "k_a" : "k_b");
        run->activities.push_back({100, 200, 0, 0, name, 5, 0,
                                   tokenscope::trace::ActivityKind::Kernel,
                                   tokenscope::trace::CopyKind::None});
    }
    a.info.origin_utc_ns = 1'000'000;
    b.info.origin_utc_ns = 1'004'000;  // b started 4 us later: its 100 is a's 4100
    RunData m = merge_ranks({a, b});
    ASSERT_EQ(m.activities.size(), 2u);
    ASSERT_EQ(m.lanes.size(), 2u);
    EXPECT_EQ(m.lanes[0].rank, 0);
    EXPECT_EQ(m.lanes[1].rank, 1);
    EXPECT_EQ(m.name_of(m.activities[0]), "k_a");
    EXPECT_EQ(m.activities[1].start_ns, 4100);
    EXPECT_EQ(m.name_of(m.activities[1]), "k_b");
    EXPECT_NE(m.activities[0].correlation, m.activities[1].correlation);
    EXPECT_EQ(offset_of(m, 1)->value, 4000.0);
}

TEST(RankMerge, RefusesWhatCannotBeAligned) {
    RunData a, b;
    a.info.name = "a";
    b.info.name = "b";
    EXPECT_THROW(merge_ranks({}), MergeError);
    // No start time and no collective: nothing to align by, and the error says which.
    try {
        merge_ranks({a, b});
        ADD_FAILURE() << "merged";
    } catch (const MergeError& e) {
        EXPECT_NE(std::string(e.what()).find("rank 1 (b)"), std::string::npos) << e.what();
    }
    MergeOptions none;
    none.alignment = ClockAlignment::None;
    EXPECT_NO_THROW(merge_ranks({a, b}, none));
    MergeOptions start;
    start.alignment = ClockAlignment::StartTimes;
    EXPECT_THROW(merge_ranks({a, b}, start), MergeError);
}

}  // namespace
