// CUDA graphs in imported traces: hand-made Nsight Systems exports traced at node
// level (graphNodeId/graphId on the kernel rows), at graph level (one
// CUPTI_ACTIVITY_KIND_GRAPH_TRACE row per launch) and from before either column
// existed, and a Kineto trace with its "graph id"/"graph node id" args. Expected
// values are the rows written here, or SQL read back from the file.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "export/chrome_trace_writer.h"
#include "import/kineto/kineto_importer.h"
#include "import/nsys/nsys_importer.h"
#include "kineto_test_util.h"
#include "nsys_test_db.h"

using namespace tokenscope;
using import::testing::global_tid;
using import::testing::sql_int;
using import::testing::temp_path;
using import::testing::TestDb;

namespace {

const std::string kGt = std::to_string(global_tid(100, 101));
const std::string kGp = std::to_string(global_tid(100, 0));

constexpr std::int64_t kGraph = 7;
constexpr int kLaunches = 2, kNodes = 3;

std::string n(std::int64_t v) {
    return std::to_string(v);
}

const trace::Diagnostic* find_diag(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

// Two cudaGraphLaunch calls (correlations 10, 20), each running nodes 101..103 of
// graph 7 as kernels and node 104 as a memset (whose row has no graphId column),
// then one eager kernel launched by cudaLaunchKernel (correlation 30).
std::string node_level_export(bool graph_columns) {
    TestDb db(temp_path(graph_columns ? "graph_nodes.sqlite" : "graph_old.sqlite"));
    db.create_modern_schema();
    if (graph_columns)
        db.exec(
            "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphNodeId INTEGER;"
            "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;"
            "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET ADD COLUMN graphNodeId INTEGER;");
    std::string sql =
        "INSERT INTO StringIds VALUES (1,'cudaGraphLaunch_v10000'),(2,'gemv_kernel'),"
        "(3,'cudaLaunchKernel_v7000');";
    auto kernel = [&](std::int64_t start, std::int64_t corr, const std::string& node,
                      const std::string& graph) {
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + n(start) + "," + n(start + 100) +
               ",0,7," + n(corr) + "," + kGp + ",2,2,1,1" +
               (graph_columns ? "," + node + "," + graph : std::string()) + ");";
    };
    for (int l = 0; l < kLaunches; ++l) {
        const std::int64_t t = 10'000 * l, corr = 10 * (l + 1);
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + n(t) + "," + n(t + 50) + ",0," +
               kGt + "," + n(corr) + ",1);";
        for (int k = 0; k < kNodes; ++k) kernel(t + 1000 + 200 * k, corr, n(101 + k), n(kGraph));
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (" + n(t + 2000) + "," + n(t + 2100) +
               ",0,7," + n(corr) + "," + kGp + ",0,64" + (graph_columns ? ",104" : "") + ");";
    }
    sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (30000,30050,0," + kGt + ",30,3);";
    kernel(31'000, 30, "NULL", "NULL");
    db.exec(sql);
    return db.path();
}

// Three launches of graph 7 traced at graph level: each is one GRAPH_TRACE row.
std::string graph_level_export() {
    TestDb db(temp_path("graph_level.sqlite"));
    db.create_modern_schema();
    db.exec(
        "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER, end INTEGER,"
        " deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
        " globalPid INTEGER, graphId INTEGER, graphExecId INTEGER);"
        "INSERT INTO StringIds VALUES (1,'cudaGraphLaunch_v10000');");
    std::string sql;
    for (int l = 0; l < 3; ++l) {
        const std::int64_t t = 100'000 * l, corr = 5 + l;
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + n(t) + "," + n(t + 40) + ",0," +
               kGt + "," + n(corr) + ",1);";
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (" + n(t + 500) + "," +
               n(t + 90'500) + ",0,1,7," + n(corr) + "," + kGp + "," + n(kGraph) + ",3);";
    }
    db.exec(sql);
    return db.path();
}

}  // namespace

TEST(GraphImport, NsysNodeLevelKernelsKeepGraphAndNode) {
    const std::string path = node_level_export(true);
    auto run = import::NsysImporter().import(path, {}, {});
    const auto in_graphs = sql_int(path,
                                   "SELECT (SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE "
                                   "graphNodeId IS NOT NULL) + (SELECT count(*) FROM "
                                   "CUPTI_ACTIVITY_KIND_MEMSET WHERE graphNodeId IS NOT NULL)");
    ASSERT_EQ(in_graphs, kLaunches * (kNodes + 1));
    EXPECT_EQ(run.graphs.size(), static_cast<std::size_t>(in_graphs));
    const auto* diag = find_diag(run, "nsys_graph_node_activities");
    ASSERT_NE(diag, nullptr);
    EXPECT_EQ(diag->value, static_cast<double>(in_graphs));

    int kernels = 0, memsets = 0, eager = 0;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel && a.kind != trace::ActivityKind::Memset)
            continue;
        auto node = run.graphs.find(a);
        if (a.correlation == 30) {
            EXPECT_FALSE(node.has_value());
            ++eager;
            continue;
        }
        ASSERT_TRUE(node.has_value()) << a.start_ns;
        // The memset row names no graph: it takes its launch's kernels' graph.
        EXPECT_EQ(node->graph_id, kGraph);
        const std::int64_t offset = a.start_ns % 10'000;
        if (a.kind == trace::ActivityKind::Memset) {
            EXPECT_EQ(node->node_id, 104u);
            ++memsets;
        } else {
            EXPECT_EQ(node->node_id, static_cast<std::uint64_t>(101 + (offset - 1000) / 200));
            EXPECT_EQ(a.correlation, static_cast<std::uint32_t>(10 * (a.start_ns / 10'000 + 1)));
            ++kernels;
        }
    }
    EXPECT_EQ(kernels, kLaunches * kNodes);
    EXPECT_EQ(memsets, kLaunches);
    EXPECT_EQ(eager, 1);
    // Launch facts are keyed by correlation, which a graph's kernels share: only the
    // eager kernel has them.
    EXPECT_FALSE(run.launches.find(10).has_value());
    EXPECT_TRUE(run.launches.find(30).has_value());
}

TEST(GraphImport, NsysExportWithoutGraphColumnsHasNoGraphNodes) {
    auto run = import::NsysImporter().import(node_level_export(false), {}, {});
    EXPECT_TRUE(run.graphs.empty());
    EXPECT_EQ(find_diag(run, "nsys_graph_node_activities"), nullptr);
    std::size_t kernels = 0;
    for (const auto& a : run.activities) kernels += a.kind == trace::ActivityKind::Kernel;
    EXPECT_EQ(kernels, static_cast<std::size_t>(kLaunches * kNodes + 1));
}

TEST(GraphImport, NsysGraphLevelTraceIsOneActivityPerLaunch) {
    const std::string path = graph_level_export();
    auto run = import::NsysImporter().import(path, {}, {});
    const auto rows = sql_int(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE");
    std::int64_t graphs = 0;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        ++graphs;
        EXPECT_EQ(run.name_of(a), "[CUDA graph 7]");
        EXPECT_EQ(a.duration_ns(), 90'000);
        // Linked to its cudaGraphLaunch: the call with the same correlation id.
        const std::int64_t launch = a.start_ns - 500;
        bool linked = false;
        for (const auto& c : run.activities)
            linked |= c.kind == trace::ActivityKind::Api && c.correlation == a.correlation &&
                      c.start_ns == launch && run.name_of(c) == "cudaGraphLaunch";
        EXPECT_TRUE(linked) << a.start_ns;
        auto node = run.graphs.find(a);
        ASSERT_TRUE(node.has_value());
        EXPECT_TRUE(node->whole_graph());
        EXPECT_EQ(node->graph_id, kGraph);
    }
    EXPECT_EQ(graphs, rows);
    const auto* diag = find_diag(run, "nsys_graph_level_trace");
    ASSERT_NE(diag, nullptr);
    EXPECT_EQ(diag->value, static_cast<double>(rows));
}

TEST(GraphImport, KinetoGraphIdsAndOneCorrelationForTheLaunch) {
    // One cudaGraphLaunch (correlation 9) running nodes 40, 41 of graph 3, then an
    // eager kernel whose args say graph 0, node 0 (Kineto's values outside a graph).
    auto kernel = [](int ts, int corr, int graph, int node) {
        return R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + std::to_string(ts) +
               R"(,"dur":5,"args":{"device":0,"stream":7,"grid":[4,1,1],"block":[64,1,1],)"
               R"("correlation":)" +
               std::to_string(corr) + R"(,"graph id":)" + std::to_string(graph) +
               R"(,"graph node id":)" + std::to_string(node) + "}}";
    };
    const std::string json =
        R"({"traceEvents":[{"ph":"X","cat":"cuda_runtime","name":"cudaGraphLaunch","pid":1,)"
        R"("tid":1,"ts":10,"dur":3,"args":{"correlation":9}},)" +
        kernel(20, 9, 3, 40) + "," + kernel(30, 9, 3, 41) + "," +
        R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":40,)"
        R"("dur":1,"args":{"correlation":12}},)" +
        kernel(50, 12, 0, 0) + "]}";
    const std::string path = kineto_test::write_file("graph_ids.json", json);
    auto run = import::KinetoImporter().import(path, {}, {});
    ASSERT_EQ(run.graphs.size(), 2u);
    int in_graph = 0;
    for (const auto& a : run.activities) {
        if (a.kind != trace::ActivityKind::Kernel) continue;
        auto node = run.graphs.find(a);
        if (a.correlation == 12) {
            EXPECT_FALSE(node.has_value());
            continue;
        }
        ASSERT_TRUE(node.has_value());
        EXPECT_EQ(a.correlation, 9u);
        EXPECT_EQ(node->graph_id, 3u);
        EXPECT_EQ(node->node_id, a.start_ns < 25'000 ? 40u : 41u);
        ++in_graph;
    }
    EXPECT_EQ(in_graph, 2);
    // The graph's two kernels share correlation 9: neither one's grid can be its launch's.
    EXPECT_FALSE(run.launches.find(9).has_value());
    EXPECT_TRUE(run.launches.find(12).has_value());
}

TEST(GraphImport, ChromeExportFlowsFromTheLaunchToEveryGraphKernel) {
    // A node-level export: each cudaGraphLaunch has 3 kernels and a memset; the eager
    // call one kernel. Expected: one flow per GPU activity, each starting on its call.
    auto run = import::NsysImporter().import(node_level_export(true), {}, {});
    std::ostringstream out;
    exporter::ChromeTraceWriter(run).write(out);
    auto doc = nlohmann::json::parse(out.str());
    std::map<std::int64_t, double> starts;              // flow id -> ts of its "s"
    std::map<std::int64_t, double> finishes;            // flow id -> ts of its "f"
    std::map<double, std::set<std::int64_t>> graph_of;  // kernel ts -> its graph args
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "s") starts[e["id"].get<std::int64_t>()] = e["ts"].get<double>();
        if (e["ph"] == "f") finishes[e["id"].get<std::int64_t>()] = e["ts"].get<double>();
        if (e["ph"] == "X" && e["args"].contains("graph node id"))
            graph_of[e["ts"].get<double>()] = {e["args"]["graph id"].get<std::int64_t>(),
                                               e["args"]["graph node id"].get<std::int64_t>()};
    }
    const std::size_t expected = kLaunches * (kNodes + 1) + 1;
    EXPECT_EQ(starts.size(), expected);
    EXPECT_EQ(finishes.size(), expected);
    std::map<double, int> per_call;  // call ts (us) -> flows from it
    for (const auto& [id, ts] : starts) {
        ASSERT_TRUE(finishes.contains(id)) << id;
        ++per_call[ts];
        EXPECT_GT(finishes[id], ts);  // the work starts after its call
    }
    EXPECT_EQ(per_call, (std::map<double, int>{{0.0, 4}, {10.0, 4}, {30.0, 1}}));
    // The first kernel of the first launch keeps Kineto's id, the correlation.
    EXPECT_EQ(starts.count(10), 1u);
    EXPECT_EQ(graph_of.size(), static_cast<std::size_t>(kLaunches * (kNodes + 1)));
    EXPECT_EQ(graph_of[1.0], (std::set<std::int64_t>{kGraph, 101}));
}
