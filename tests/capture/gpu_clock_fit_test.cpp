// The CUPTI-to-host clock fit on synthetic bracketed pairs with a known offset and drift.
#include "capture/gpu_clock_fit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace tokenscope::capture {
namespace {

// CUPTI's clock reads near 1.8e18 ns (wall-clock based); the host's monotonic clock
// is 1.5e12 ns at that instant and runs 20 ppm fast relative to it.
constexpr std::int64_t kGpuBase = 1'795'980'497'995'591'566;
constexpr std::int64_t kHostBase = 1'500'000'000'000;
constexpr double kDrift = 20e-6;

// The true host time at a GPU reading, computed in integers: 20 ppm of d is d / 50000.
std::int64_t true_host(std::int64_t gpu) {
    const std::int64_t d = gpu - kGpuBase;
    return kHostBase + d + d / 50'000;
}

// 200 pairs over 10 s; the two bracket halves take 100..900 ns each, unequally, so a
// midpoint is off the true instant by at most 400 ns.
std::vector<ClockPair> jittered_pairs() {
    std::vector<ClockPair> pairs;
    std::uint32_t state = 12345;
    auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return static_cast<std::int64_t>(100 + (state >> 8) % 801);
    };
    for (int i = 0; i < 200; ++i) {
        const std::int64_t g = kGpuBase + static_cast<std::int64_t>(i) * 50'000'000;
        const std::int64_t h = true_host(g);
        pairs.push_back({h - next(), g, h + next()});
    }
    return pairs;
}

TEST(GpuClockFitTest, RecoversOffsetAndDriftFromJitteredPairs) {
    const auto pairs = jittered_pairs();
    const GpuClockFit fit = GpuClockFit::fit(pairs);
    EXPECT_FALSE(fit.is_offset_only());
    EXPECT_EQ(fit.pair_count(), 200u);
    // Slope error ~ jitter / span = 400 ns / 10 s = 4e-8 at worst.
    EXPECT_NEAR(fit.drift(), kDrift, 4e-8);
    // Inside and slightly beyond the fitted range the map is within the jitter bound.
    for (std::int64_t t = -1'000'000'000; t <= 11'000'000'000; t += 250'000'000) {
        const std::int64_t g = kGpuBase + t;
        EXPECT_LE(std::llabs(fit.map(g) - true_host(g)), 400) << "at t=" << t;
    }
    EXPECT_GT(fit.residual_rms_ns(), 0.0);
    EXPECT_LE(fit.residual_rms_ns(), 400.0);
    EXPECT_LE(fit.residual_max_ns(), 800.0);
    EXPECT_GE(fit.residual_max_ns(), fit.residual_rms_ns());
}

TEST(GpuClockFitTest, SymmetricBracketsGiveAnExactMapAt1e18Nanoseconds) {
    std::vector<ClockPair> pairs;
    for (int i = 0; i < 50; ++i) {
        const std::int64_t g = kGpuBase + static_cast<std::int64_t>(i) * 200'000'000;
        const std::int64_t h = true_host(g);
        pairs.push_back({h - 300, g, h + 300});
    }
    const GpuClockFit fit = GpuClockFit::fit(pairs);
    EXPECT_NEAR(fit.slope(), 1.0 + kDrift, 1e-12);
    // Integer truncation in true_host() is the only error left: at most 2 ns.
    for (std::int64_t t = 0; t <= 10'000'000'000; t += 333'333'333)
        EXPECT_LE(std::llabs(fit.map(kGpuBase + t) - true_host(kGpuBase + t)), 2) << t;
    EXPECT_LE(fit.residual_max_ns(), 2.0);
}

TEST(GpuClockFitTest, OnePairFallsBackToPureOffset) {
    const ClockPair p{kHostBase - 500, kGpuBase, kHostBase + 1500};  // midpoint host + 500
    const GpuClockFit fit = GpuClockFit::fit(std::vector<ClockPair>{p});
    EXPECT_TRUE(fit.is_offset_only());
    EXPECT_DOUBLE_EQ(fit.slope(), 1.0);
    EXPECT_EQ(fit.map(kGpuBase), kHostBase + 500);
    EXPECT_EQ(fit.map(kGpuBase + 7'000'000'000), kHostBase + 500 + 7'000'000'000);
    EXPECT_EQ(fit.residual_max_ns(), 0.0);
}

TEST(GpuClockFitTest, IdenticalGpuReadingsAverageTheOffset) {
    // Midpoints 1000, 1200, 1400 ns after kHostBase: the offset is their mean, 1200.
    std::vector<ClockPair> pairs = {{kHostBase + 900, kGpuBase, kHostBase + 1100},
                                    {kHostBase + 1100, kGpuBase, kHostBase + 1300},
                                    {kHostBase + 1300, kGpuBase, kHostBase + 1500}};
    const GpuClockFit fit = GpuClockFit::fit(pairs);
    EXPECT_TRUE(fit.is_offset_only());
    EXPECT_EQ(fit.map(kGpuBase), kHostBase + 1200);
    EXPECT_NEAR(fit.residual_rms_ns(), std::sqrt(2.0 * 200 * 200 / 3), 1e-6);
    EXPECT_DOUBLE_EQ(fit.residual_max_ns(), 200.0);
}

TEST(GpuClockFitTest, ShortSpanIsTreatedAsPureOffset) {
    // 1 ms of spread: a slope from it would be noise, so none is fitted.
    std::vector<ClockPair> pairs;
    for (int i = 0; i < 10; ++i) {
        const std::int64_t g = kGpuBase + i * 100'000;
        pairs.push_back({true_host(g) - 50, g, true_host(g) + 50});
    }
    const GpuClockFit fit = GpuClockFit::fit(pairs);
    EXPECT_TRUE(fit.is_offset_only());
    EXPECT_LE(std::llabs(fit.map(kGpuBase) - kHostBase), 20);
}

TEST(GpuClockFitTest, FromOffsetShiftsByAConstant) {
    const GpuClockFit fit = GpuClockFit::from_offset(-1'000);
    EXPECT_EQ(fit.map(5'000), 4'000);
    const GpuClockFit identity;
    EXPECT_EQ(identity.map(kGpuBase), kGpuBase);
}

TEST(GpuClockFitTest, BadInputIsRejectedWithTheReason) {
    EXPECT_THROW(GpuClockFit::fit(std::vector<ClockPair>{}), std::invalid_argument);
    std::vector<ClockPair> pairs = {{10, 5, 20}, {30, 6, 25}};
    try {
        GpuClockFit::fit(pairs);
        FAIL() << "expected invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("pair 1 has host_after < host_before"),
                  std::string::npos);
    }
}

}  // namespace
}  // namespace tokenscope::capture
