// Hand-made nsys-like exports, one per importer branch. Expected values are
// the rows inserted below, worked out by hand.

#include <gtest/gtest.h>

#include <algorithm>

#include "import/import_error.h"
#include "import/nsys/nsys_importer.h"
#include "nsys_test_db.h"

namespace tokenscope::import {
namespace {

using testing::global_tid;
using testing::temp_path;
using testing::TestDb;
using trace::ActivityKind;

constexpr std::int64_t kPid = 100;
constexpr std::int64_t kTid = 101;
const std::string kGt = std::to_string(global_tid(kPid, kTid));
const std::string kGp = std::to_string(global_tid(kPid, 0));

std::size_t count_kind(const trace::RunData& run, ActivityKind kind) {
    return static_cast<std::size_t>(
        std::count_if(run.activities.begin(), run.activities.end(),
                      [kind](const auto& a) { return a.kind == kind; }));
}

const trace::Diagnostic* find_diag(const trace::RunData& run, const std::string& name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

const trace::Activity* find_named(const trace::RunData& run, ActivityKind kind,
                                  std::string_view name) {
    for (const auto& a : run.activities)
        if (a.kind == kind && run.name_of(a) == name) return &a;
    return nullptr;
}

std::string make_full(const std::string& file) {
    TestDb db(temp_path(file));
    db.create_modern_schema();
    db.exec(
        "INSERT INTO StringIds VALUES (1,'cudaLaunchKernel_v7000'),(2,'cudaMemcpyAsync_v3020'),"
        "(3,'gemm_kernel<float>'),(4,'gemm'),(5,'main thread'),(6,'ProfilerStep#7'),"
        "(7,'attention'),(8,'cudaStreamSynchronize_v3020');"
        "INSERT INTO ThreadNames VALUES (5, 10, " +
        kGt +
        ");"
        "INSERT INTO TARGET_INFO_GPU VALUES (0, 'NVIDIA H100', 132, 3350000000000);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000,1500,0," +
        kGt +
        ",11,1),"
        "(2000,2600,0," +
        kGt + ",12,2),(3000,3100,0," + kGt +
        ",13,1),"
        "(7000,7600,0," +
        kGt +
        ",14,8);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1600,5000,0,7,11," +
        kGp +
        ",3,4,1,1),"
        "(5200,6000,0,7,13," +
        kGp +
        ",3,4,1,1);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (2700,3500,0,7,12," +
        kGp +
        ",4096,1),"
        "(3600,3700,0,9,0," +
        kGp +
        ",64,99);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (6100,6200,0,7,0," +
        kGp +
        ",0,256);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (7000,7500,0,-1,14," +
        kGp +
        ",3);"
        // push/pop step via textId, start/end step with inline text, a plain
        // range, a mark, and a range that never ended.
        "INSERT INTO NVTX_EVENTS VALUES (900,6500,59,NULL,6," +
        kGt +
        ",NULL),"
        "(6600,9000,60,'ProfilerStep#8',NULL," +
        kGt + "," + kGt +
        "),"
        "(1500,2500,59,NULL,7," +
        kGt + ",NULL),(4000,NULL,34,'hello',NULL," + kGt +
        ",NULL),"
        "(9500,NULL,59,'open',NULL," +
        kGt +
        ",NULL);"
        "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (257,0,'GA100',5,"
        "'PCIe RX Throughput [Throughput %]'),(257,0,'GA100',6,'GR Active [Throughput %]');"
        "INSERT INTO GPU_METRICS VALUES (100,257,5,10),(200,257,5,20),(100,257,6,50);");
    return db.path();
}

TEST(NsysSynthetic, ReadsEveryTableOfAModernExport) {
    auto run = NsysImporter().import(make_full("full.sqlite"), {}, {});
    EXPECT_EQ(run.info.source, trace::Source::Nsys);
    EXPECT_EQ(run.info.clock, trace::ClockDomain::SourceFile);
    EXPECT_EQ(run.info.name, "full");
    EXPECT_EQ(run.info.gpu.name, "NVIDIA H100");
    EXPECT_EQ(run.info.gpu.sm_count, 132);
    EXPECT_DOUBLE_EQ(run.info.gpu.peak_bandwidth, 3.35e12);

    EXPECT_EQ(count_kind(run, ActivityKind::Api), 4u);
    EXPECT_EQ(count_kind(run, ActivityKind::Kernel), 2u);
    EXPECT_EQ(count_kind(run, ActivityKind::Memcpy), 2u);
    EXPECT_EQ(count_kind(run, ActivityKind::Memset), 1u);
    EXPECT_EQ(count_kind(run, ActivityKind::Sync), 1u);
    EXPECT_EQ(count_kind(run, ActivityKind::Range), 3u);  // 2 steps + "attention"
    EXPECT_EQ(count_kind(run, ActivityKind::Marker), 1u);
    // thread, stream 7, step track, stream 9, PCIe counter (GR Active is not wanted)
    ASSERT_EQ(run.lanes.size(), 5u);
    EXPECT_EQ(run.counters.size(), 2u);
}

TEST(NsysSynthetic, LinksKernelsToTheirApiCallAndNamesLanes) {
    auto run = NsysImporter().import(make_full("links.sqlite"), {}, {});
    const auto* api = find_named(run, ActivityKind::Api, "cudaLaunchKernel");  // suffix stripped
    ASSERT_NE(api, nullptr);
    EXPECT_EQ(api->correlation, 11u);
    EXPECT_EQ(api->start_ns, 1000);
    const auto& thread = run.lanes[api->lane];
    EXPECT_EQ(thread.kind, trace::LaneKind::CpuThread);
    EXPECT_EQ(thread.name, "main thread (101)");
    EXPECT_EQ(thread.process, kPid);
    EXPECT_EQ(thread.native_id, kTid);

    const trace::Activity* kernel = nullptr;
    for (const auto& a : run.activities)
        if (a.kind == ActivityKind::Kernel && a.correlation == 11) kernel = &a;
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ(kernel->start_ns, 1600);
    EXPECT_EQ(kernel->end_ns, 5000);
    EXPECT_EQ(run.name_of(*kernel), "gemm_kernel<float>");
    EXPECT_EQ(run.device_of(*kernel), 0);
    const auto& stream = run.lanes[kernel->lane];
    EXPECT_EQ(stream.kind, trace::LaneKind::GpuStream);
    EXPECT_EQ(stream.native_id, 7);
    EXPECT_EQ(stream.name, "GPU 0 stream 7");

    // The sync record sits on the thread of cudaStreamSynchronize (correlation 14).
    const trace::Activity* sync = nullptr;
    for (const auto& a : run.activities)
        if (a.kind == ActivityKind::Sync) sync = &a;
    ASSERT_NE(sync, nullptr);
    EXPECT_EQ(sync->lane, api->lane);
    EXPECT_EQ(run.name_of(*sync), "[CUDA sync type 3]");  // no ENUM_CUPTI_SYNC_TYPE table
}

TEST(NsysSynthetic, CopiesGetKindBytesAndUnknownKindsAreCounted) {
    auto run = NsysImporter().import(make_full("copies.sqlite"), {}, {});
    const trace::Activity* h2d = nullptr;
    const trace::Activity* odd = nullptr;
    for (const auto& a : run.activities) {
        if (a.kind != ActivityKind::Memcpy) continue;
        (a.bytes == 4096 ? h2d : odd) = &a;
    }
    ASSERT_NE(h2d, nullptr);
    ASSERT_NE(odd, nullptr);
    EXPECT_EQ(h2d->copy, trace::CopyKind::H2D);
    EXPECT_EQ(run.name_of(*h2d), "[CUDA memcpy Host-to-Device]");
    EXPECT_EQ(odd->copy, trace::CopyKind::None);
    const auto* diag = find_diag(run, "unknown_copy_kind");
    ASSERT_NE(diag, nullptr);
    EXPECT_EQ(diag->value, 1.0);
    EXPECT_EQ(diag->severity, trace::Severity::DataLoss);
    const auto* memset = find_named(run, ActivityKind::Memset, "[CUDA memset]");
    ASSERT_NE(memset, nullptr);
    EXPECT_EQ(memset->bytes, 256u);
}

TEST(NsysSynthetic, NvtxRangesBecomeStepsWithTextIdAndInlineText) {
    auto run = NsysImporter().import(make_full("nvtx.sqlite"), {}, {});
    ASSERT_EQ(run.steps.size(), 2u);
    EXPECT_EQ(run.steps[0].index, 7);  // ProfilerStep#7 via textId 6, push/pop
    EXPECT_EQ(run.steps[0].start_ns, 900);
    EXPECT_EQ(run.steps[0].end_ns, 6500);
    EXPECT_EQ(run.steps[0].phase, trace::Phase::Iteration);
    EXPECT_EQ(run.steps[1].index, 8);  // inline text, start/end
    EXPECT_EQ(run.steps[1].start_ns, 6600);
    EXPECT_EQ(run.steps[1].end_ns, 9000);
    const auto* step_range = find_named(run, ActivityKind::Range, "ProfilerStep#7");
    ASSERT_NE(step_range, nullptr);
    EXPECT_EQ(run.lanes[step_range->lane].kind, trace::LaneKind::StepTrack);
    const auto* attention = find_named(run, ActivityKind::Range, "attention");
    ASSERT_NE(attention, nullptr);
    EXPECT_EQ(run.lanes[attention->lane].kind, trace::LaneKind::CpuThread);
    const auto* mark = find_named(run, ActivityKind::Marker, "hello");
    ASSERT_NE(mark, nullptr);
    EXPECT_EQ(mark->start_ns, 4000);
    EXPECT_EQ(mark->end_ns, 4000);
    const auto* open = find_diag(run, "nvtx_unterminated_ranges");
    ASSERT_NE(open, nullptr);
    EXPECT_EQ(open->value, 1.0);
    EXPECT_EQ(find_diag(run, "no_steps"), nullptr);
}

TEST(NsysSynthetic, StepPatternThatMatchesNothingGivesNoStepsDiagnostic) {
    ImportOptions options;
    options.step_pattern = "^layer\\d+$";
    auto run = NsysImporter().import(make_full("nomatch.sqlite"), options, {});
    EXPECT_TRUE(run.steps.empty());
    const auto* d = find_diag(run, "no_steps");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->severity, trace::Severity::Info);
    EXPECT_NE(d->text.find("^layer\\d+$"), std::string::npos);
    // Every NVTX range is then an ordinary thread range.
    EXPECT_EQ(count_kind(run, ActivityKind::Range), 3u);
}

TEST(NsysSynthetic, GpuMetricsBecomeCounterLanes) {
    auto run = NsysImporter().import(make_full("metrics.sqlite"), {}, {});
    ASSERT_EQ(run.counters.size(), 2u);
    const auto& lane = run.lanes[run.counters[0].lane];
    EXPECT_EQ(lane.kind, trace::LaneKind::Counter);
    EXPECT_EQ(lane.device, 1);  // typeId 257: GPU id in the low byte
    EXPECT_EQ(lane.name, "GPU 1 PCIe RX Throughput [Throughput %]");
    EXPECT_EQ(run.counters[0].time_ns, 100);
    EXPECT_EQ(run.counters[0].value, 10.0);
    EXPECT_EQ(run.counters[1].value, 20.0);
}

TEST(NsysSynthetic, MissingOptionalTablesAreFineAndReported) {
    TestDb db(temp_path("minimal.sqlite"));
    db.exec(
        "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO StringIds VALUES (1,'k');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER,"
        " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,"
        " shortName INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10,20,1,3,5,0,1,1);");
    auto run = NsysImporter().import(db.path(), {}, {});
    ASSERT_EQ(run.activities.size(), 1u);
    EXPECT_EQ(run.device_of(run.activities[0]), 1);
    const auto* missing = find_diag(run, "nsys_missing_tables");
    ASSERT_NE(missing, nullptr);
    // MEMCPY, MEMSET, RUNTIME, SYNCHRONIZATION, NVTX_EVENTS, TARGET_INFO_GPU, GPU_METRICS,
    // ThreadNames
    EXPECT_EQ(missing->value, 8.0);
    EXPECT_NE(missing->text.find("NVTX_EVENTS"), std::string::npos);
    EXPECT_NE(find_diag(run, "no_steps"), nullptr);
    EXPECT_TRUE(run.info.gpu.name.empty());
}

TEST(NsysSynthetic, OldSchemaWithoutMetaDataExportOrNewColumns) {
    TestDb db(temp_path("old.sqlite"));
    // Older exports: no META_DATA_EXPORT, no textId, no globalPid, shortName only.
    db.exec(
        "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO StringIds VALUES (1,'old_kernel'),(2,'cudaLaunch');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER,"
        " streamId INTEGER, correlationId INTEGER, shortName INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (50,80,0,1,2,1);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER,"
        " globalTid INTEGER, correlationId INTEGER, nameId INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10,40," +
        kGt +
        ",2,2);"
        "CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT,"
        " globalTid INTEGER);"
        "INSERT INTO NVTX_EVENTS VALUES (5,90,59,'step 3'," +
        kGt + ");");
    auto run = NsysImporter().import(db.path(), {}, {});
    EXPECT_NE(find_diag(run, "nsys_old_schema"), nullptr);
    const auto* k = find_named(run, ActivityKind::Kernel, "old_kernel");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->correlation, 2u);
    ASSERT_EQ(run.steps.size(), 1u);
    EXPECT_EQ(run.steps[0].index, 3);
    EXPECT_EQ(run.steps[0].start_ns, 5);
}

TEST(NsysSynthetic, CorrelationIdsOfTwoProcessesDoNotCollide) {
    TestDb db(temp_path("twoproc.sqlite"));
    db.create_modern_schema();
    std::string a = std::to_string(global_tid(1, 1)), b = std::to_string(global_tid(2, 2));
    std::string pa = std::to_string(global_tid(1, 0)), pb = std::to_string(global_tid(2, 0));
    db.exec(
        "INSERT INTO StringIds VALUES (1,'cudaLaunchKernel'),(2,'ka'),(3,'kb');"
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (0,10,0," +
        a + ",1,1),(0,10,0," + b +
        ",1,1);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (20,30,0,7,1," +
        pa +
        ",2,2,1,1),"
        "(20,30,1,7,1," +
        pb + ",3,3,1,1);");
    auto run = NsysImporter().import(db.path(), {}, {});
    for (const auto& k : run.activities) {
        if (k.kind != ActivityKind::Kernel) continue;
        int launches = 0;
        for (const auto& api : run.activities)
            if (api.kind == ActivityKind::Api && api.correlation == k.correlation) {
                ++launches;
                EXPECT_EQ(run.lanes[api.lane].process, run.lanes[k.lane].process);
            }
        EXPECT_EQ(launches, 1) << run.name_of(k);
    }
}

TEST(NsysSynthetic, MemcpyEnumTableInTheFileWins) {
    TestDb db(temp_path("enum.sqlite"));
    db.create_modern_schema();
    db.exec(
        "CREATE TABLE ENUM_CUDA_MEMCPY_OPER(id INTEGER, name TEXT, label TEXT);"
        "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (10,'CUDA_MEMCPY_KIND_PTOP','Peer-to-Peer'),"
        "(8,'CUDA_MEMCPY_KIND_DTOD','Device-to-Device'),(3,'CUDA_MEMCPY_KIND_DTOH','D2H moved');"
        "INSERT INTO StringIds VALUES (1,'x');"
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (0,1,0,7,0,0,8,10),(2,3,0,7,0,0,8,8),"
        "(4,5,0,7,0,0,8,3),(6,7,0,7,0,0,8,1);");
    auto run = NsysImporter().import(db.path(), {}, {});
    std::vector<trace::CopyKind> kinds;
    for (const auto& a : run.activities) kinds.push_back(a.copy);
    // id 1 is not in this file's enum, so it is unknown here.
    std::vector<trace::CopyKind> expected = {trace::CopyKind::P2P, trace::CopyKind::D2D,
                                             trace::CopyKind::D2H, trace::CopyKind::None};
    EXPECT_EQ(kinds, expected);
    const auto* d = find_diag(run, "unknown_copy_kind");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->value, 1.0);
}

TEST(NsysSynthetic, ProgressCountsRowsAndCancelStops) {
    std::string path = make_full("progress.sqlite");
    std::int64_t last_done = -1, last_total = -1;
    NsysImporter().import(path, {}, [&](std::int64_t done, std::int64_t total) {
        last_done = done;
        last_total = total;
        return true;
    });
    // 4 runtime + 2 kernel + 2 memcpy + 1 memset + 1 sync + 5 NVTX + 3 metric rows
    EXPECT_EQ(last_total, 18);
    EXPECT_EQ(last_done, 18);
    EXPECT_THROW(NsysImporter().import(path, {}, [](std::int64_t, std::int64_t) { return false; }),
                 trace::Cancelled);
}

TEST(NsysSynthetic, BadStepPatternIsAClearError) {
    ImportOptions options;
    options.step_pattern = "([";
    try {
        NsysImporter().import(make_full("badpattern.sqlite"), options, {});
        FAIL() << "expected ImportError";
    } catch (const ImportError& e) {
        EXPECT_NE(std::string(e.what()).find("badpattern.sqlite"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("invalid step pattern"), std::string::npos);
    }
}

}  // namespace
}  // namespace tokenscope::import
