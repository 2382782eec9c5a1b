#include <gtest/gtest.h>

#include <random>

#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"

namespace tokenscope::store {
namespace {

using test::activity_key;
using test::TempDir;

// Brute force: the definition of overlap, independent of the reader's chunk logic.
std::vector<trace::Activity> brute_force(const std::vector<trace::Activity>& all,
                                         std::uint16_t lane, std::int64_t t0, std::int64_t t1) {
    std::vector<trace::Activity> out;
    for (const auto& a : all) {
        if (a.lane != lane || a.start_ns >= t1) continue;
        bool zero_length_inside = a.end_ns <= a.start_ns && a.start_ns >= t0;
        if (a.end_ns > t0 || zero_length_inside) out.push_back(a);
    }
    return out;
}

void sort_fully(std::vector<trace::Activity>& v) {
    std::sort(v.begin(), v.end(),
              [](const auto& x, const auto& y) { return activity_key(x) < activity_key(y); });
}

class StoreStreaming : public ::testing::Test {
  protected:
    void SetUp() override {
        path_ = dir_.file("stream.tokenscope");
        std::mt19937_64 rng(42);
        run_.lanes.resize(3);
        // Lane 0: back-to-back kernels; lane 1: long overlapping ranges arriving out of
        // order (chunks overlap in time); lane 2: zero-length markers.
        std::int64_t t = 0;
        for (std::uint32_t i = 0; i < 9000; ++i) {
            std::int64_t d = 100 + static_cast<std::int64_t>(rng() % 900);
            run_.activities.push_back(
                {t, t + d, 0, 0, 1, i, 0, trace::ActivityKind::Kernel, trace::CopyKind::None});
            t += d;
        }
        for (std::uint32_t i = 0; i < 12000; ++i) {
            auto s = static_cast<std::int64_t>(rng() % 5'000'000);
            auto d = static_cast<std::int64_t>(rng() % 200'000);
            run_.activities.push_back(
                {s, s + d, 0, 0, 2, i, 1, trace::ActivityKind::Range, trace::CopyKind::None});
        }
        for (std::uint32_t i = 0; i < 3000; ++i)
            run_.activities.push_back({i * 1000LL, i * 1000LL, 0, 0, 3, i, 2,
                                       trace::ActivityKind::Marker, trace::CopyKind::None});
        run_.steps = {{2, 1, trace::Phase::Decode, 50, 60, 0},
                      {1, 1, trace::Phase::Decode, 30, 40, 0},
                      {2, 0, trace::Phase::Prefill, 10, 50, 0},
                      {1, 0, trace::Phase::Prefill, 0, 30, 0}};
        run_id_ = StoreWriter(path_).write_run(run_);
    }

    std::vector<trace::Activity> stream(std::uint16_t lane, std::int64_t t0, std::int64_t t1) {
        std::vector<trace::Activity> got;
        StoreReader(path_).for_each_activity(run_id_, lane, t0, t1,
                                             [&](const trace::Activity& a) { got.push_back(a); });
        return got;
    }

    TempDir dir_;
    std::string path_;
    trace::RunData run_;
    std::int64_t run_id_ = 0;
};

TEST_F(StoreStreaming, ReturnsExactlyTheOverlappingActivitiesInStartOrder) {
    std::mt19937_64 rng(7);
    int nonempty = 0;
    for (int q = 0; q < 60; ++q) {
        auto lane = static_cast<std::uint16_t>(q % 3);
        auto t0 = static_cast<std::int64_t>(rng() % 5'000'000);
        auto t1 = t0 + static_cast<std::int64_t>(rng() % (q < 30 ? 50'000 : 3'000'000));
        auto got = stream(lane, t0, t1);
        for (std::size_t i = 1; i < got.size(); ++i)
            ASSERT_LE(got[i - 1].start_ns, got[i].start_ns) << "query " << q;
        auto want = brute_force(run_.activities, lane, t0, t1);
        sort_fully(got);
        sort_fully(want);
        ASSERT_EQ(got, want) << "lane " << lane << " [" << t0 << ", " << t1 << ")";
        nonempty += !want.empty();
    }
    EXPECT_GT(nonempty, 30);  // the queries must actually hit data
}

TEST_F(StoreStreaming, RangeEdgesFollowHalfOpenOverlap) {
    // Lane 2 markers sit at multiples of 1000: [1000, 3000) holds 1000 and 2000 only.
    auto got = stream(2, 1000, 3000);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].start_ns, 1000);
    EXPECT_EQ(got[1].start_ns, 2000);
    EXPECT_TRUE(stream(2, 1001, 2000).empty());
    EXPECT_TRUE(stream(0, -100, 0).empty());  // lane 0 starts at 0: nothing before it
    EXPECT_EQ(stream(0, 0, 1).size(), 1u);
}

TEST_F(StoreStreaming, StepsComeOrderedByRequestAndIndex) {
    StoreReader reader(path_);
    std::vector<std::pair<std::int64_t, std::int32_t>> order;
    reader.for_each_step(run_id_, std::nullopt,
                         [&](const trace::Step& s) { order.emplace_back(s.request, s.index); });
    EXPECT_EQ(order,
              (std::vector<std::pair<std::int64_t, std::int32_t>>{{1, 0}, {1, 1}, {2, 0}, {2, 1}}));
    std::vector<trace::Step> two;
    reader.for_each_step(run_id_, 2, [&](const trace::Step& s) { two.push_back(s); });
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0], run_.steps[2]);
    EXPECT_EQ(two[1], run_.steps[0]);
}

}  // namespace
}  // namespace tokenscope::store
