// RunData's launch side table: lookup by correlation and the sort that keeps it searchable.
#include <gtest/gtest.h>

#include "trace/run_data.h"

namespace tokenscope::trace {
namespace {

KernelLaunch launch(std::uint32_t correlation, std::uint32_t grid_x) {
    KernelLaunch l;
    l.correlation = correlation;
    l.grid = {grid_x, 1, 1};
    l.block = {128, 1, 1};
    return l;
}

TEST(KernelLaunch, LaunchForFindsByCorrelationAfterSort) {
    RunData run;
    run.launches = {launch(30, 3), launch(10, 1), launch(20, 2)};
    EXPECT_EQ(run.sort_launches(), 0u);
    ASSERT_EQ(run.launches.size(), 3u);
    EXPECT_EQ(run.launches[0].correlation, 10u);
    EXPECT_EQ(run.launches[2].correlation, 30u);
    ASSERT_NE(run.launch_for(20), nullptr);
    EXPECT_EQ(run.launch_for(20)->grid[0], 2u);
    ASSERT_NE(run.launch_for(30), nullptr);
    EXPECT_EQ(run.launch_for(30)->grid[0], 3u);
    EXPECT_EQ(run.launch_for(15), nullptr);
    EXPECT_EQ(run.launch_for(31), nullptr);
    EXPECT_EQ(run.launch_for(1), nullptr);
}

TEST(KernelLaunch, ZeroCorrelationIsNeverALaunch) {
    RunData run;
    run.launches = {launch(0, 9), launch(5, 1)};
    EXPECT_EQ(run.sort_launches(), 1u);
    EXPECT_EQ(run.launch_for(0), nullptr);
    ASSERT_EQ(run.launches.size(), 1u);
    EXPECT_EQ(run.launches[0].correlation, 5u);
}

TEST(KernelLaunch, RepeatedCorrelationKeepsTheFirst) {
    RunData run;
    run.launches = {launch(7, 1), launch(4, 2), launch(7, 3), launch(7, 4)};
    EXPECT_EQ(run.sort_launches(), 2u);
    ASSERT_EQ(run.launches.size(), 2u);
    ASSERT_NE(run.launch_for(7), nullptr);
    EXPECT_EQ(run.launch_for(7)->grid[0], 1u);
}

TEST(KernelLaunch, EmptyTableFindsNothing) {
    RunData run;
    EXPECT_EQ(run.sort_launches(), 0u);
    EXPECT_EQ(run.launch_for(1), nullptr);
}

}  // namespace
}  // namespace tokenscope::trace
