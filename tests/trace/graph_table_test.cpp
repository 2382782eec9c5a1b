// GraphTable: CUDA graph nodes of activities by (lane, start), each node held once.
#include "trace/graph_table.h"

#include <gtest/gtest.h>

using namespace tokenscope::trace;

TEST(GraphTable, FindsByLaneAndStartBeforeAndAfterFinish) {
    GraphTable t;
    t.add(2, 500, {7, 11});
    t.add(1, 900, {7, 12});
    t.add(1, 100, {7, 11});  // a replay of node 11 on another lane
    Activity a;
    a.lane = 1;
    a.start_ns = 900;
    ASSERT_TRUE(t.find(a).has_value());  // unfinished: found by a scan
    EXPECT_EQ(t.find(a)->node_id, 12u);
    EXPECT_EQ(t.finish(), 0u);
    EXPECT_EQ(t.size(), 3u);
    EXPECT_EQ(t.node_count(), 2u);  // node 11 once for both of its activities
    EXPECT_EQ(t.at(0), (GraphActivity{1, 100, {7, 11}}));
    EXPECT_EQ(t.at(2), (GraphActivity{2, 500, {7, 11}}));
    EXPECT_EQ(t.find(a)->node_id, 12u);
    EXPECT_FALSE(t.find(1, 901).has_value());
    EXPECT_FALSE(t.find(3, 900).has_value());
    EXPECT_EQ(t.find(2, 500), (GraphNode{7, 11}));
}

TEST(GraphTable, RepeatedKeyKeepsTheFirstAndIsCounted) {
    GraphTable t;
    t.add(0, 10, {1, 5});
    t.add(0, 10, {1, 6});
    t.add(0, 5, {1, 0});  // a whole graph launch
    EXPECT_EQ(t.finish(), 1u);
    EXPECT_EQ(t.size(), 2u);
    EXPECT_EQ(t.find(0, 10)->node_id, 5u);
    EXPECT_TRUE(t.find(0, 5)->whole_graph());
    EXPECT_EQ(t.finish(), 0u);  // idempotent
    t.add(0, 1, {1, 7});        // adding after finish still works
    t.finish();
    EXPECT_EQ(t.find(0, 1)->node_id, 7u);
}

TEST(GraphTable, AnActivityCostsSixteenBytesOnceFinished) {
    GraphTable t;
    for (int i = 0; i < 1000; ++i) t.add(1, i * 100, {3, static_cast<std::uint64_t>(1 + i % 10)});
    t.finish();
    EXPECT_EQ(t.node_count(), 10u);
    // 1000 entries of 16 bytes, 10 nodes of 16 bytes, no interning map.
    EXPECT_EQ(t.memory_bytes(), 1000u * 16 + 10u * 16);
}
