// A CUDA-graph decode in Nsight Systems exports, opened with the built tokenscope-cli:
// 20 iterations of 10 ms (TensorRT-LLM's NVTX marker), each one cudaGraphLaunch of
// 8 us running 10 kernels of 996 us back to back (GPU busy 99.6%). Written once traced
// at node level (every kernel row, graphNodeId/graphId set, all on the launch's
// correlation id) and once at graph level (one CUPTI_ACTIVITY_KIND_GRAPH_TRACE row per
// launch). Expected numbers follow from these times and docs/attribution.md.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../import/nsys_test_db.h"
#include "cli_process.h"

using tokenscope::import::testing::global_tid;
using tokenscope::import::testing::sql_int;
using tokenscope::import::testing::temp_path;
using tokenscope::import::testing::TestDb;
using tokenscope::test::run_cli;

namespace {

constexpr int kIterations = 20, kKernels = 10;
constexpr std::int64_t kIterationNs = 10'000'000, kKernelNs = 996'000;
constexpr std::int64_t kLaunchAt = 2'000, kLaunchNs = 8'000, kFirstKernelAt = 20'000;

std::string n(std::int64_t v) {
    return std::to_string(v);
}

std::string graph_export(bool graph_level) {
    const std::string gt = n(global_tid(100, 101)), gp = n(global_tid(100, 0));
    TestDb db(temp_path(graph_level ? "cli_graph_level.sqlite" : "cli_graph_nodes.sqlite"));
    db.create_modern_schema();
    db.exec(
        "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphNodeId INTEGER;"
        "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER, end INTEGER,"
        " deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
        " globalPid INTEGER, graphId INTEGER, graphExecId INTEGER);"
        "INSERT INTO StringIds VALUES (1,'cudaGraphLaunch_v10000'),(2,'gemv_kernel'),"
        "(3,'rmsnorm_kernel');");
    std::string sql;
    for (int i = 0; i < kIterations; ++i) {
        const std::int64_t t = i * kIterationNs, corr = 100 + i;
        sql += "INSERT INTO NVTX_EVENTS VALUES (" + n(t) + "," + n(t + kIterationNs) +
               ",59,'[Executor] _forward_step " + n(i) + ": 0 ctx reqs, 16 gen reqs',NULL," + gt +
               ",NULL);";
        sql += "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (" + n(t + kLaunchAt) + "," +
               n(t + kLaunchAt + kLaunchNs) + ",0," + gt + "," + n(corr) + ",1);";
        const std::int64_t first = t + kFirstKernelAt;
        if (graph_level) {
            sql += "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (" + n(first) + "," +
                   n(first + kKernels * kKernelNs) + ",0,1,7," + n(corr) + "," + gp + ",4,9);";
            continue;
        }
        for (int k = 0; k < kKernels; ++k) {
            const std::int64_t start = first + k * kKernelNs;
            sql += "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (" + n(start) + "," +
                   n(start + kKernelNs) + ",0,7," + n(corr) + "," + gp + "," + (k % 2 ? "3" : "2") +
                   ",NULL,1,1," + n(500 + k) + ",4);";
        }
    }
    db.exec(sql);
    return db.path();
}

const nlohmann::json& rule(const nlohmann::json& run, const std::string& name) {
    for (const auto& r : run["verdict"]["rules"])
        if (r["name"] == name) return r;
    throw std::runtime_error("no rule " + name);
}

nlohmann::json breakdown(const std::string& path) {
    auto r = run_cli("breakdown --json --steps --progress none " + path);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

void expect_steps(const nlohmann::json& run) {
    const auto& rows = run["step_rows"];
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kIterations));
    for (const auto& row : rows) {
        const auto& a = row["assigned_ns"];
        const std::int64_t gpu =
            a["gpu_compute"].get<std::int64_t>() + a["gpu_memory"].get<std::int64_t>();
        EXPECT_EQ(gpu, kKernels * kKernelNs);
        // The cpu share is the one launch call, not the graph's kernels.
        EXPECT_EQ(a["cpu"].get<std::int64_t>(), kLaunchNs);
        EXPECT_EQ(a["scheduling"].get<std::int64_t>(), kIterationNs - gpu - kLaunchNs);
    }
}

}  // namespace

TEST(GraphTraceCli, NodeLevelGraphDecodeReadsGpuBound) {
    const std::string path = graph_export(false);
    ASSERT_EQ(sql_int(path, "SELECT count(DISTINCT correlationId) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
              kIterations);
    auto j = breakdown(path);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["verdict"]["primary"], "gpu-bound") << run["verdict"].dump();
    // Each graph's first kernel starts 20 - 2 = 18 us after its launch (the stream idle
    // since the previous iteration's last kernel); the other 9 wait only for their
    // predecessor: 20 x 18 us and 180 x 0, P95 at rank 0.95 * 199 = 189.05, among the
    // 18 us. Measured from the launch, the tenth kernel would read 18 us + 9 x 996 us,
    // over the 5 ms cpu-bound threshold.
    EXPECT_EQ(rule(run, "launch_delay_p95_ns")["value"].get<double>(), 18'000.0);
    EXPECT_FALSE(rule(run, "launch_delay_p95_ns")["fired"].get<bool>());
    expect_steps(run);

    // Imported into a .tokenscope file the graph nodes stay (store schema 7), counted
    // against the rows with a graphNodeId.
    const std::string store = temp_path("cli_graph_nodes.tokenscope");
    std::filesystem::remove(store);
    auto imported = run_cli("import " + path + " --out " + store + " --progress none");
    ASSERT_EQ(imported.status, 0) << imported.err;
    auto info = run_cli("info --json " + store);
    ASSERT_EQ(info.status, 0) << info.err;
    auto ij = nlohmann::json::parse(info.out);
    const auto& irun = ij.contains("runs") ? ij["runs"][0] : ij;
    EXPECT_EQ(irun["cuda_graph_activities"].get<std::int64_t>(),
              sql_int(path,
                      "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId "
                      "IS NOT NULL"));
    EXPECT_EQ(breakdown(store)["runs"][0]["verdict"]["primary"], "gpu-bound");

    auto text = run_cli("breakdown --progress none " + path);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("verdict: gpu-bound"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("cpu-bound"), std::string::npos) << text.out;
    auto stats = run_cli("stats --json --progress none " + path);
    ASSERT_EQ(stats.status, 0) << stats.err;
    EXPECT_NE(stats.out.find("\"metrics\""), std::string::npos) << stats.out;
}

TEST(GraphTraceCli, GraphLevelExportReadsGpuBound) {
    const std::string path = graph_export(true);
    ASSERT_EQ(sql_int(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_GRAPH_TRACE"), kIterations);
    auto j = breakdown(path);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["verdict"]["primary"], "gpu-bound") << run["verdict"].dump();
    // One activity per launch, 18 us after its call.
    EXPECT_EQ(rule(run, "launch_delay_p95_ns")["value"].get<double>(), 18'000.0);
    expect_steps(run);

    auto text = run_cli("breakdown --progress none " + path);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("verdict: gpu-bound"), std::string::npos) << text.out;
}

TEST(GraphTraceCli, CudaGraphsFlagIsForTheCudaBackend) {
    const std::string out = temp_path("cuda_graphs_refused.tokenscope");
    auto help = run_cli("run --help");
    ASSERT_EQ(help.status, 0) << help.err;
    EXPECT_NE(help.out.find("--cuda-graphs"), std::string::npos) << help.out;
    // The cpu backend launches no CUDA kernels: a usage error, before any file exists.
    auto cpu = run_cli("run --backend cpu --cuda-graphs --tokens 2 --progress none --out " + out);
    EXPECT_EQ(cpu.status, 1) << cpu.err;
    EXPECT_NE(cpu.err.find("--cuda-graphs needs --backend cuda"), std::string::npos) << cpu.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(GraphTraceCli, CudaGraphsWithoutADriverSaysSo) {
    if (void* h = dlopen("libcuda.so.1", RTLD_NOW)) {
        dlclose(h);
        GTEST_SKIP() << "an NVIDIA driver is present; tests/gpu/run.sh runs --cuda-graphs";
    }
    const std::string out = temp_path("cuda_graphs_no_driver.tokenscope");
    auto r = run_cli("run --backend cuda --cuda-graphs --preset tiny --progress none --out " + out);
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("no NVIDIA driver found"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
}
