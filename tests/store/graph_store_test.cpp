// Store schema 7: the CUDA graph node of GPU activities (graph_activity table) round
// trips, bit for bit for CUPTI's 64-bit node ids, and a version 6 file migrates to an
// empty table. Expected values are the ones planted here, or SQL read from the file.
#include <gtest/gtest.h>

#include <string>

#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::downgrade_store;
using tokenscope::test::query_int;

constexpr std::uint64_t kBigNode = 0xF000'0000'0000'0042ULL;  // above INT64_MAX

// sample_run with its first 30 kernels marked as nodes of graph 9 (node 100 + k), and
// the 31st as a whole graph launch; activities are listed out of lane order.
trace::RunData graph_run() {
    trace::RunData run = test::sample_run("graphs", 11);
    int k = 0;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        if (k < 30)
            run.graphs.add(a.lane, a.start_ns, {9, 100 + static_cast<std::uint64_t>(k)});
        else if (k == 30)
            run.graphs.add(a.lane, a.start_ns, {9, 0});
        else if (k == 31)
            run.graphs.add(a.lane, a.start_ns, {4'000'000'000u, kBigNode});
        if (++k > 31) break;
    }
    run.graphs.finish();
    return run;
}

TEST(GraphStore, GraphNodesRoundTrip) {
    TempDir dir;
    const std::string path = dir.file("graphs.tokenscope");
    const trace::RunData run = graph_run();
    ASSERT_EQ(run.graphs.size(), 32u);
    const std::int64_t id = StoreWriter(path).write_run(run);
    EXPECT_EQ(query_int(path, "PRAGMA user_version"), kSchemaVersion);
    EXPECT_GE(kSchemaVersion, 7);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM graph_activity"), 32);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM graph_activity WHERE node_id = 0"), 1);
    EXPECT_EQ(query_int(path, "SELECT max(graph_id) FROM graph_activity"), 4'000'000'000LL);

    const trace::RunData got = StoreReader(path).load_run(id);
    EXPECT_EQ(got.graphs, run.graphs);
    // Found through the activities as read back (the store reorders them).
    int in_graph = 0, whole = 0;
    for (const auto& a : got.activities) {
        auto node = got.graphs.find(a);
        if (!node) continue;
        ++in_graph;
        whole += node->whole_graph();
        if (node->graph_id == 4'000'000'000u) {
            EXPECT_EQ(node->node_id, kBigNode);
        }
    }
    EXPECT_EQ(in_graph, 32);
    EXPECT_EQ(whole, 1);
}

TEST(GraphStore, Version6FileMigratesWithoutGraphNodes) {
    TempDir dir;
    const std::string path = dir.file("v6.tokenscope");
    const std::int64_t old_id = StoreWriter(path).write_run(test::sample_run("old", 5));
    downgrade_store(path, 6);
    {
        StoreReader reader(path);
        EXPECT_EQ(reader.schema_version(), kSchemaVersion);
        EXPECT_TRUE(reader.load_run(old_id).graphs.empty());
    }
    EXPECT_EQ(query_int(path, "PRAGMA user_version"), kSchemaVersion);
    EXPECT_EQ(query_int(path, "SELECT count(*) FROM graph_activity"), 0);
    const std::int64_t fresh = StoreWriter(path).write_run(graph_run());
    EXPECT_EQ(StoreReader(path).load_run(fresh).graphs.size(), 32u);
}

}  // namespace
}  // namespace tokenscope::store
