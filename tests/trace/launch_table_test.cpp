// LaunchTable: interning of launch configurations, the finishing sort that keeps
// the first of a repeated correlation, lookup by correlation and visiting order.
#include <gtest/gtest.h>

#include <vector>

#include "trace/launch_table.h"
#include "trace/run_data.h"

namespace tokenscope::trace {
namespace {

KernelLaunch launch(std::uint32_t correlation, std::uint32_t grid_x, std::uint16_t registers = 32) {
    KernelLaunch l;
    l.correlation = correlation;
    l.grid = {grid_x, 1, 1};
    l.block = {128, 1, 1};
    l.registers_per_thread = registers;
    return l;
}

std::vector<std::uint32_t> correlations(const LaunchTable& t) {
    std::vector<std::uint32_t> out;
    for (KernelLaunch l : t) out.push_back(l.correlation);
    return out;
}

TEST(LaunchTable, ThousandLaunchesOfThreeConfigurationsKeepThree) {
    LaunchTable t;
    // Correlation c uses configuration (c - 1) % 3: grid_x 100, 200 or 300.
    for (std::uint32_t c = 1; c <= 1000; ++c) t.add(launch(c, 100 * (1 + (c - 1) % 3)));
    EXPECT_EQ(t.finish(), 0u);
    EXPECT_EQ(t.size(), 1000u);
    EXPECT_EQ(t.configuration_count(), 3u);
    EXPECT_EQ(t.find(1)->grid[0], 100u);
    EXPECT_EQ(t.find(500)->grid[0], 200u);  // (500 - 1) % 3 = 1
    EXPECT_EQ(t.find(999)->grid[0], 300u);  // (999 - 1) % 3 = 2
    EXPECT_EQ(t.find(1000)->correlation, 1000u);
    // 8 bytes per kernel plus three configurations of at most 36 bytes; a map left
    // resident would add at least a node per configuration and a bucket array.
    EXPECT_GE(t.memory_bytes(), 1000u * 8);
    EXPECT_LE(t.memory_bytes(), 1000u * 8 + 3 * 36);
}

TEST(LaunchTable, EveryFieldTellsConfigurationsApart) {
    LaunchTable t;
    KernelLaunch base = launch(1, 4);
    t.add(base);
    KernelLaunch other = base;
    other.correlation = 2, other.registers_per_thread = 33;
    t.add(other);
    other.correlation = 3, other.registers_per_thread = 32, other.shared_bytes = 1;
    t.add(other);
    other.correlation = 4, other.shared_bytes = 0, other.block[2] = 2;
    t.add(other);
    other.correlation = 5, other.block[2] = 1;  // base's configuration again
    t.add(other);
    t.finish();
    EXPECT_EQ(t.configuration_count(), 4u);
    EXPECT_EQ(t.find(2)->registers_per_thread, 33);
    EXPECT_EQ(t.find(3)->shared_bytes, 1u);
    EXPECT_EQ(t.find(4)->block[2], 2u);
    KernelLaunch five = base;
    five.correlation = 5;
    EXPECT_EQ(*t.find(5), five);
}

TEST(LaunchTable, FindsPresentNotAbsentNorZero) {
    LaunchTable t{launch(30, 3), launch(10, 1), launch(20, 2)};
    EXPECT_EQ(t.find(20)->grid[0], 2u);  // before finish: a scan, still right
    EXPECT_EQ(t.finish(), 0u);
    ASSERT_TRUE(t.find(20).has_value());
    EXPECT_EQ(*t.find(20), launch(20, 2));
    EXPECT_EQ(t.find(30)->grid[0], 3u);
    EXPECT_EQ(t.find(10)->grid[0], 1u);
    EXPECT_FALSE(t.find(15).has_value());
    EXPECT_FALSE(t.find(31).has_value());
    EXPECT_FALSE(t.find(9).has_value());
    EXPECT_FALSE(t.find(0).has_value());
}

TEST(LaunchTable, ZeroCorrelationIsDroppedAndNeverFound) {
    LaunchTable t{launch(0, 9), launch(5, 1)};
    EXPECT_FALSE(t.find(0).has_value());
    EXPECT_EQ(t.finish(), 1u);
    ASSERT_EQ(t.size(), 1u);
    EXPECT_EQ(t.at(0), launch(5, 1));
    EXPECT_FALSE(t.find(0).has_value());
}

TEST(LaunchTable, RepeatedCorrelationKeepsTheFirstAdded) {
    LaunchTable t{launch(7, 1), launch(4, 2), launch(7, 3), launch(7, 4)};
    EXPECT_EQ(t.find(7)->grid[0], 1u);
    EXPECT_EQ(t.finish(), 2u);
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t.find(7)->grid[0], 1u);
    EXPECT_EQ(t.find(4)->grid[0], 2u);
}

TEST(LaunchTable, FinishIsIdempotent) {
    LaunchTable t{launch(3, 3), launch(0, 1), launch(1, 1), launch(3, 9)};
    EXPECT_EQ(t.finish(), 2u);
    const LaunchTable once = t;
    EXPECT_EQ(t.finish(), 0u);
    EXPECT_EQ(t, once);
    EXPECT_EQ(correlations(t), (std::vector<std::uint32_t>{1, 3}));
}

TEST(LaunchTable, VisitsInCorrelationOrder) {
    LaunchTable t{launch(30, 3), launch(10, 1), launch(20, 2)};
    t.finish();
    std::vector<KernelLaunch> seen(t.begin(), t.end());
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0], launch(10, 1));
    EXPECT_EQ(seen[1], launch(20, 2));
    EXPECT_EQ(seen[2], launch(30, 3));
    EXPECT_EQ(t.at(1), launch(20, 2));
}

TEST(LaunchTable, AddAfterFinishReusesConfigurationsAndResorts) {
    LaunchTable t{launch(30, 3), launch(10, 1)};
    t.finish();
    t.add(launch(20, 3));  // 30's configuration: interned again after the map was freed
    t.add(launch(40, 4));
    t.add(launch(10, 8));  // a repeat: dropped, and its configuration with it
    EXPECT_EQ(t.finish(), 1u);
    EXPECT_EQ(t.configuration_count(), 3u);
    EXPECT_EQ(correlations(t), (std::vector<std::uint32_t>{10, 20, 30, 40}));
    EXPECT_EQ(t.find(10)->grid[0], 1u);
    EXPECT_EQ(t.find(20)->grid[0], 3u);
}

TEST(LaunchTable, EqualityComparesLaunchesNotInterning) {
    LaunchTable a{launch(1, 1), launch(2, 2)};
    LaunchTable b{launch(2, 2), launch(1, 1)};  // configurations interned the other way round
    a.finish();
    b.finish();
    EXPECT_EQ(a, b);
    LaunchTable c{launch(1, 1), launch(2, 2, 33)};
    c.finish();
    EXPECT_FALSE(a == c);
}

TEST(LaunchTable, EmptyTableFindsNothing) {
    RunData run;
    EXPECT_EQ(run.launches.finish(), 0u);
    EXPECT_TRUE(run.launches.empty());
    EXPECT_FALSE(run.launches.find(1).has_value());
    EXPECT_TRUE(run.launches.begin() == run.launches.end());
    run.launches.add(launch(6, 2));
    run.launches.clear();
    EXPECT_EQ(run.launches.size(), 0u);
    EXPECT_EQ(run.launches.configuration_count(), 0u);
}

}  // namespace
}  // namespace tokenscope::trace
