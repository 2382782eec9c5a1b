// Chrome trace export: valid JSON, exact microsecond text, metadata, flows,
// counters, steps, and a round trip through the Kineto importer.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "export/chrome_trace_writer.h"
#include "import/importer_registry.h"
#include "import/nsys/nsys_importer.h"
#include "nsys_test_db.h"
#include "support/activity_builder.h"
#include "support/fixtures.h"

namespace tokenscope::import {
namespace {

using test::act;
using trace::ActivityKind;
using trace::LaneKind;

const std::string kFixture = TOKENSCOPE_FIXTURES_DIR "/nsys/pipit_a100x4_cloverleaf.sqlite";

// Two host calls launching a kernel and a copy, a sync, a range, a counter, a step.
trace::RunData small_run() {
    trace::RunData run;
    run.info.name = "small";
    run.lanes = {{LaneKind::CpuThread, -1, 4242, 4243, "main"},
                 {LaneKind::GpuStream, 0, 4242, 7, "GPU 0 stream 7"},
                 {LaneKind::Counter, 0, 0, 1, "PCIe RX"}};
    auto& s = run.strings;
    run.activities = {
        act(0, ActivityKind::Api, 1000, 1999,
            {.name = s.intern("cudaLaunchKernel"), .correlation = 5}),
        act(1, ActivityKind::Kernel, 1234567, 1300001,
            {.name = s.intern("gemm \"tiled\""), .correlation = 5}),
        act(0, ActivityKind::Api, 2000, 2500,
            {.name = s.intern("cudaMemcpyAsync"), .correlation = 6}),
        act(1, ActivityKind::Memcpy, 1300002, 1300999,
            {.name = s.intern("Memcpy HtoD"), .correlation = 6}),
        act(0, ActivityKind::Sync, 3000, 1400000, {.name = s.intern("cudaStreamSynchronize")}),
        act(0, ActivityKind::Range, 900, 1500000, {.name = s.intern("forward")})};
    run.activities[1].flops = 1e12f;  // its device is its lane's: GPU 0
    run.activities[3].copy = trace::CopyKind::H2D;
    run.activities[3].bytes = 4096;
    run.counters = {{2, 1000000, 12.5}, {2, 2000000, 25.0}};
    run.steps = {{0, 3, trace::Phase::Iteration, 900, 1500000, 0}};
    return run;
}

std::string export_text(const trace::RunData& run) {
    std::ostringstream out;
    exporter::ChromeTraceWriter(run).write(out);
    return out.str();
}

TEST(ChromeExport, TimesAreExactMicrosecondsWithThreeDecimals) {
    std::string text = export_text(small_run());
    EXPECT_NE(text.find("\"ts\":1234.567,\"dur\":65.434"), std::string::npos);  // 1300001-1234567
    EXPECT_NE(text.find("\"ts\":1.000,\"dur\":0.999"), std::string::npos);
    EXPECT_NE(text.find("\"ts\":1300.002,\"dur\":0.997"), std::string::npos);
}

TEST(ChromeExport, ParsesAsJsonWithEventsMetadataFlowsCountersAndSteps) {
    auto doc = nlohmann::json::parse(export_text(small_run()));
    std::map<std::string, int> phases;
    std::map<std::string, std::string> names;  // "M" name -> args.name, last wins
    int thread_names = 0;
    for (const auto& e : doc["traceEvents"]) {
        ++phases[e["ph"].get<std::string>()];
        if (e["ph"] == "M" && e["name"] == "thread_name") ++thread_names;
    }
    EXPECT_EQ(phases["X"], 7);  // 6 activities + 1 step
    EXPECT_EQ(phases["s"], 2);  // correlations 5 and 6
    EXPECT_EQ(phases["f"], 2);
    EXPECT_EQ(phases["C"], 2);
    EXPECT_EQ(thread_names, 3);  // main, stream 7, steps
    bool kernel_seen = false;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] != "X" || e["cat"] != "kernel") continue;
        kernel_seen = true;
        EXPECT_EQ(e["name"], "gemm \"tiled\"");
        EXPECT_EQ(e["pid"], 0);
        EXPECT_EQ(e["tid"], 7);
        EXPECT_EQ(e["args"]["correlation"], 5);
        EXPECT_EQ(e["args"]["flops"], 1000000000000LL);
        EXPECT_EQ(e["args"]["device"], 0);
    }
    EXPECT_TRUE(kernel_seen);
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] != "X" || e["cat"] != "cuda_runtime") continue;
        EXPECT_FALSE(e["args"].contains("device")) << e.dump();  // host lane: -1
    }
    for (const auto& e : doc["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "gpu_memcpy") {
            EXPECT_EQ(e["args"]["bytes"], 4096);
            EXPECT_EQ(e["args"]["copy kind"], "h2d");
        }
}

TEST(ChromeExport, FlopsAreIntegersInTheirShortestDigits) {
    trace::RunData run;
    run.lanes = {{LaneKind::GpuStream, 2, 1, 7, "GPU 2 stream 7"}};
    std::uint32_t k = run.strings.intern("k");
    for (float flops : {1e12f, 2.6f, 123456789.0f, 1e30f}) {
        run.activities.push_back(act(0, ActivityKind::Kernel, 0, 10, {.name = k}));
        run.activities.back().flops = flops;
    }
    std::string text = export_text(run);
    EXPECT_NE(text.find("\"flops\":1000000000000,"), std::string::npos) << text;
    EXPECT_NE(text.find("\"flops\":3,"), std::string::npos);
    // 123456789 is not a float: the nearest is 123456792, and 123456790 reads back as it.
    EXPECT_NE(text.find("\"flops\":123456790,"), std::string::npos);
    EXPECT_NE(text.find("\"flops\":18446744073709551615,"), std::string::npos);  // clamped
    EXPECT_EQ(text.find("e+"), std::string::npos);
    EXPECT_NE(text.find("\"device\":2"), std::string::npos);  // from the lane
}

// The fixture: one X event per activity, names of every lane present.
TEST(ChromeExport, FixtureExportHasOneEventPerActivity) {
    TOKENSCOPE_NEED_FIXTURE_FILE(kFixture);
    auto run = NsysImporter().import(kFixture, {}, {});
    auto doc = nlohmann::json::parse(export_text(run));
    std::int64_t x = 0, s = 0;
    std::set<std::string> thread_names;
    for (const auto& e : doc["traceEvents"]) {
        x += e["ph"] == "X";
        s += e["ph"] == "s";
        if (e["ph"] == "M" && e["name"] == "thread_name")
            thread_names.insert(e["args"]["name"].get<std::string>());
    }
    // 1312 kernels + 279 copies + 3048 runtime + 1312 sync rows (README / SQL counts)
    EXPECT_EQ(x, 5951);
    // Every kernel and copy has its own correlation id with a runtime call.
    EXPECT_EQ(s, testing::sql_int(kFixture,
                                  "SELECT COUNT(DISTINCT correlationId) FROM (SELECT correlationId "
                                  "FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT correlationId "
                                  "FROM CUPTI_ACTIVITY_KIND_MEMCPY) WHERE correlationId IN (SELECT "
                                  "correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME)"));
    EXPECT_TRUE(thread_names.contains("GPU 0 stream 7"));
    EXPECT_TRUE(thread_names.contains("cuda-cloverleaf (1701896)"));
}

struct Key {
    ActivityKind kind;
    std::string name;
    std::int64_t start, end;
    auto operator<=>(const Key&) const = default;
};

std::multiset<Key> keys(const trace::RunData& run, bool sync_as_api) {
    std::multiset<Key> out;
    for (const auto& a : run.activities) {
        ActivityKind k = sync_as_api && a.kind == ActivityKind::Sync ? ActivityKind::Api : a.kind;
        out.insert({k, std::string(run.name_of(a)), a.start_ns, a.end_ns});
    }
    return out;
}

TEST(ChromeExport, RoundTripThroughKinetoImporterKeepsActivities) {
    const Importer* kineto = default_registry().find("kineto");
    if (kineto == nullptr) GTEST_SKIP() << "Kineto importer not built yet";
    auto run = small_run();
    std::string path = testing::temp_path("roundtrip.json");
    exporter::ChromeTraceWriter(run).write_file(path);
    auto back = kineto->import(path, {}, {});
    // The step is exported as its own X event on the Steps track; it comes back
    // as one extra range, and everything else exactly as it was.
    auto expected = keys(run, false);
    expected.insert({ActivityKind::Range, "iteration 3", 900, 1500000});
    EXPECT_EQ(keys(back, false), expected);
}

TEST(ChromeExport, FixtureRoundTripThroughKinetoImporter) {
    const Importer* kineto = default_registry().find("kineto");
    if (kineto == nullptr) GTEST_SKIP() << "Kineto importer not built yet";
    TOKENSCOPE_NEED_FIXTURE_FILE(kFixture);
    auto run = NsysImporter().import(kFixture, {}, {});
    std::string path = testing::temp_path("fixture_roundtrip.json");
    exporter::ChromeTraceWriter(run).write_file(path);
    auto back = kineto->import(path, {}, {});
    // nsys names sync records "[CUDA Event sync]"; Kineto recognises a sync
    // call by "Synchronize" in its name, so these come back as API calls.
    EXPECT_EQ(keys(back, true), keys(run, true));
}

}  // namespace
}  // namespace tokenscope::import
