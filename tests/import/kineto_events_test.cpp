// Hand-made Kineto files: every expected value is worked out in the comments.
#include <gtest/gtest.h>

#include <algorithm>

#include "import/kineto/kineto_importer.h"
#include "kineto_test_util.h"
#include "trace/progress.h"

namespace {

using tokenscope::import::KinetoImport;
using tokenscope::import::KinetoImporter;
using tokenscope::trace::Activity;
using tokenscope::trace::ActivityKind;
using tokenscope::trace::CopyKind;
using tokenscope::trace::LaneKind;
using tokenscope::trace::RunData;

KinetoImport import_text(const std::string& name, const std::string& events,
                         const std::string& extra = "") {
    std::string path = kineto_test::write_file(
        name, "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "]" + extra + "}");
    return KinetoImporter().import_with_launches(path, {}, {});
}

const Activity* find_named(const RunData& run, std::string_view name) {
    for (const auto& a : run.activities)
        if (run.name_of(a) == name) return &a;
    return nullptr;
}

const tokenscope::trace::Diagnostic* diagnostic(const RunData& run, std::string_view name) {
    for (const auto& d : run.diagnostics)
        if (d.name == name) return &d;
    return nullptr;
}

TEST(KinetoEvents, MicrosecondTextBecomesExactNanoseconds) {
    auto imp =
        import_text("ns.json",
                    R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1234.567,"dur":0.5},
                              {"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":1712195495505582.988,"dur":4.928},
                              {"ph":"X","cat":"kernel","name":"k3","pid":0,"tid":7,"ts":2.0005,"dur":1e1},
                              {"ph":"X","cat":"kernel","name":"k4","pid":0,"tid":7,"ts":7,"dur":0})");
    const Activity* k = find_named(imp.run, "k");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->start_ns, 1234567);
    EXPECT_EQ(k->end_ns, 1235067);  // + 0.5 us
    const Activity* k2 = find_named(imp.run, "k2");
    EXPECT_EQ(k2->start_ns, 1712195495505582988);  // a double would give ...582987 or ...583000
    EXPECT_EQ(k2->end_ns, 1712195495505587916);
    const Activity* k3 = find_named(imp.run, "k3");
    EXPECT_EQ(k3->start_ns, 2001);  // 2.0005 us rounds half up
    EXPECT_EQ(k3->end_ns, 2001 + 10000);
    EXPECT_EQ(find_named(imp.run, "k4")->start_ns, 7000);
}

TEST(KinetoEvents, BaseTimeNanosecondsIsAddedEvenWhenWrittenLast) {
    auto imp = import_text(
        "base.json",
        R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1234.567,"dur":1})",
        R"(, "baseTimeNanoseconds": 1700000000000000000)");
    const Activity* op = find_named(imp.run, "op");
    ASSERT_NE(op, nullptr);
    EXPECT_EQ(op->start_ns, 1700000000001234567);
    EXPECT_EQ(op->end_ns, 1700000000001235567);
}

TEST(KinetoEvents, BeginEndPairsNestPerThread) {
    auto imp = import_text("be.json", R"(
        {"ph":"B","cat":"cpu_op","name":"outer","pid":1,"tid":2,"ts":10},
        {"ph":"B","cat":"cpu_op","name":"inner","pid":1,"tid":2,"ts":12},
        {"ph":"B","cat":"cpu_op","name":"other_thread","pid":1,"tid":3,"ts":13},
        {"ph":"E","pid":1,"tid":2,"ts":15},
        {"ph":"E","pid":1,"tid":2,"ts":20},
        {"ph":"E","pid":1,"tid":2,"ts":21},
        {"ph":"E","pid":1,"tid":3,"ts":30},
        {"ph":"B","cat":"cpu_op","name":"never_closed","pid":1,"tid":3,"ts":40})");
    const Activity* outer = find_named(imp.run, "outer");
    const Activity* inner = find_named(imp.run, "inner");
    const Activity* other = find_named(imp.run, "other_thread");
    ASSERT_TRUE(outer && inner && other);
    EXPECT_EQ(inner->start_ns, 12000);
    EXPECT_EQ(inner->end_ns, 15000);
    EXPECT_EQ(outer->start_ns, 10000);
    EXPECT_EQ(outer->end_ns, 20000);
    EXPECT_EQ(other->end_ns, 30000);
    EXPECT_EQ(outer->kind, ActivityKind::Range);
    EXPECT_EQ(imp.run.lanes[outer->lane].kind, LaneKind::CpuThread);
    EXPECT_EQ(find_named(imp.run, "never_closed"), nullptr);
    ASSERT_NE(diagnostic(imp.run, "kineto_unmatched_end"), nullptr);
    EXPECT_EQ(diagnostic(imp.run, "kineto_unmatched_end")->value, 1.0);  // the E at 21
    ASSERT_NE(diagnostic(imp.run, "kineto_unclosed_begin"), nullptr);
    EXPECT_EQ(diagnostic(imp.run, "kineto_unclosed_begin")->value, 1.0);
}

TEST(KinetoEvents, InstantEventsAreMarkers) {
    auto imp = import_text("instant.json", R"(
        {"ph":"i","name":"mark","pid":1,"tid":2,"ts":5,"s":"t"},
        {"name":"Record Window End","ph":"i","s":"g","pid":"","tid":"","ts":9.5})");
    const Activity* mark = find_named(imp.run, "mark");
    ASSERT_NE(mark, nullptr);
    EXPECT_EQ(mark->kind, ActivityKind::Marker);
    EXPECT_EQ(mark->start_ns, 5000);
    EXPECT_EQ(mark->end_ns, 5000);
    const Activity* end = find_named(imp.run, "Record Window End");
    ASSERT_NE(end, nullptr);
    EXPECT_EQ(end->start_ns, 9500);
    EXPECT_EQ(imp.run.lanes[end->lane].name, "global");
}

TEST(KinetoEvents, MetadataNamesAndOrdersLanes) {
    auto imp = import_text("meta.json", R"(
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":1},
        {"ph":"X","cat":"cpu_op","name":"a","pid":100,"tid":200,"ts":1,"dur":1},
        {"ph":"X","cat":"cpu_op","name":"b","pid":100,"tid":100,"ts":1,"dur":1},
        {"name":"thread_name","ph":"M","pid":100,"tid":200,"args":{"name":"worker"}},
        {"name":"thread_name","ph":"M","pid":0,"tid":7,"args":{"name":"stream 7 "}},
        {"name":"process_sort_index","ph":"M","pid":0,"tid":0,"args":{"sort_index":16777216}},
        {"name":"thread_sort_index","ph":"M","pid":100,"tid":200,"args":{"sort_index":1}},
        {"name":"thread_sort_index","ph":"M","pid":100,"tid":100,"args":{"sort_index":2}})");
    ASSERT_EQ(imp.run.lanes.size(), 3u);
    // Host process 100 sorts before the GPU (sort index 16777216); tid 200 has sort index 1.
    EXPECT_EQ(imp.run.lanes[0].name, "worker");
    EXPECT_EQ(imp.run.lanes[0].native_id, 200);
    EXPECT_EQ(imp.run.lanes[1].name, "thread 100");
    EXPECT_EQ(imp.run.lanes[2].name, "GPU 0 stream 7");
    EXPECT_EQ(imp.run.lanes[2].kind, LaneKind::GpuStream);
    EXPECT_EQ(imp.run.lanes[2].device, 0);
    EXPECT_EQ(imp.run.lanes[find_named(imp.run, "a")->lane].name, "worker");
    EXPECT_EQ(imp.run.lanes[find_named(imp.run, "k")->lane].name, "GPU 0 stream 7");
}

TEST(KinetoEvents, Ac2gFlowsLinkRuntimeCallAndKernel) {
    auto imp = import_text("flow.json", R"(
        {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":100,"dur":5},
        {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":110,"dur":3},
        {"ph":"s","id":42,"pid":1,"tid":1,"ts":100,"cat":"ac2g","name":"ac2g"},
        {"ph":"f","id":42,"pid":0,"tid":7,"ts":110,"cat":"ac2g","name":"ac2g","bp":"e"},
        {"ph":"f","id":43,"pid":0,"tid":7,"ts":500,"cat":"ac2g","name":"ac2g","bp":"e"})");
    EXPECT_EQ(find_named(imp.run, "cudaLaunchKernel")->correlation, 42u);
    EXPECT_EQ(find_named(imp.run, "k")->correlation, 42u);
    EXPECT_EQ(find_named(imp.run, "cudaLaunchKernel")->kind, ActivityKind::Api);
    EXPECT_EQ(imp.stats.flow_events, 3);
    EXPECT_EQ(imp.stats.flows_bound, 2);
    ASSERT_NE(diagnostic(imp.run, "kineto_unbound_flows"), nullptr);
    EXPECT_EQ(diagnostic(imp.run, "kineto_unbound_flows")->value, 1.0);
}

TEST(KinetoEvents, CopiesSetsSyncsAndKernelLaunches) {
    auto imp = import_text("kinds.json", R"J(
        {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":1,"dur":1,"args":{"bytes":4096,"correlation":9}},
        {"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Pinned)","pid":0,"tid":7,"ts":3,"dur":1,"args":{"bytes":8}},
        {"ph":"X","cat":"gpu_memcpy","name":"Memcpy PtoP (Device -> Device)","pid":1,"tid":9,"ts":3,"dur":1,"args":{"bytes":16,"device":1}},
        {"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":5,"dur":1,"args":{"bytes":64}},
        {"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":5,"dur":1},
        {"ph":"X","cat":"Kernel","name":"k","pid":0,"tid":7,"ts":7,"dur":1,"args":{"grid":[2,3,4],"block":[32,1,1],"registers per thread":40,"shared memory":1024}})J");
    const Activity* h2d = find_named(imp.run, "Memcpy HtoD (Pageable -> Device)");
    EXPECT_EQ(h2d->copy, CopyKind::H2D);
    EXPECT_EQ(h2d->bytes, 4096u);
    EXPECT_EQ(h2d->correlation, 9u);
    EXPECT_EQ(find_named(imp.run, "Memcpy DtoH (Device -> Pinned)")->copy, CopyKind::D2H);
    const Activity* p2p = find_named(imp.run, "Memcpy PtoP (Device -> Device)");
    EXPECT_EQ(p2p->copy, CopyKind::P2P);
    EXPECT_EQ(imp.run.device_of(*p2p), 1);
    EXPECT_EQ(find_named(imp.run, "Memset (Device)")->kind, ActivityKind::Memset);
    EXPECT_EQ(find_named(imp.run, "Memset (Device)")->bytes, 64u);
    EXPECT_EQ(find_named(imp.run, "cudaStreamSynchronize")->kind, ActivityKind::Sync);
    const Activity* k = find_named(imp.run, "k");  // capitalised "Kernel" of older Kineto
    EXPECT_EQ(k->kind, ActivityKind::Kernel);
    ASSERT_EQ(imp.launches.size(), 1u);
    EXPECT_EQ(&imp.run.activities[imp.launches[0].activity], k);
    EXPECT_EQ(imp.launches[0].grid, (std::array<std::int32_t, 3>{2, 3, 4}));
    EXPECT_EQ(imp.launches[0].block, (std::array<std::int32_t, 3>{32, 1, 1}));
    EXPECT_EQ(imp.launches[0].registers_per_thread, 40);
    EXPECT_EQ(imp.launches[0].shared_memory, 1024);
}

// Activities carry no device; a GPU event's args.device names its lane's GPU,
// else the pid does.
TEST(KinetoEvents, GpuLaneDeviceComesFromArgsElseThePid) {
    auto imp = import_text("devices.json", R"J(
        {"ph":"X","cat":"kernel","name":"a","pid":4000,"tid":7,"ts":1,"dur":1,"args":{"device":3}},
        {"ph":"X","cat":"kernel","name":"b","pid":2,"tid":7,"ts":1,"dur":1},
        {"ph":"X","cat":"cpu_op","name":"c","pid":4000,"tid":1,"ts":1,"dur":1,"args":{"device":5}})J");
    const Activity* a = find_named(imp.run, "a");
    const Activity* b = find_named(imp.run, "b");
    const Activity* c = find_named(imp.run, "c");
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(imp.run.device_of(*a), 3);
    EXPECT_EQ(imp.run.device_of(*b), 2);
    EXPECT_EQ(imp.run.device_of(*c), -1);  // host work has no device, whatever its args say
}

TEST(KinetoEvents, ProfilerStepsAndPatternStepsButNotGpuCopies) {
    auto imp = import_text("steps.json", R"(
        {"ph":"X","cat":"user_annotation","name":"ProfilerStep#3","pid":1,"tid":1,"ts":0,"dur":100},
        {"ph":"X","cat":"gpu_user_annotation","name":"ProfilerStep#3","pid":0,"tid":7,"ts":5,"dur":90},
        {"ph":"X","cat":"user_annotation","name":"decode_17","pid":1,"tid":1,"ts":200,"dur":50},
        {"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":1,"tid":1,"ts":300,"dur":5})");
    // The first preset that matches frames the steps (docs/engine-traces.md, Iterations): the
    // pytorch preset comes before the generic one, so decode_17 is not a step.
    ASSERT_EQ(imp.run.steps.size(), 1u);
    EXPECT_EQ(imp.run.steps[0].index, 3);
    EXPECT_EQ(imp.run.steps[0].phase, tokenscope::trace::Phase::Iteration);
    EXPECT_EQ(imp.run.steps[0].start_ns, 0);
    EXPECT_EQ(imp.run.steps[0].end_ns, 100000);
    // Annotations are kept as ranges on step tracks, not CPU work.
    EXPECT_EQ(imp.run.lanes[find_named(imp.run, "nccl:all_reduce")->lane].kind,
              LaneKind::StepTrack);

    // Without ProfilerStep#N the generic preset frames decode_17, numbered by its digits.
    auto generic = import_text("generic_steps.json", R"(
        {"ph":"X","cat":"user_annotation","name":"decode_17","pid":1,"tid":1,"ts":200,"dur":50},
        {"ph":"X","cat":"user_annotation","name":"nccl:all_reduce","pid":1,"tid":1,"ts":300,"dur":5})");
    ASSERT_EQ(generic.run.steps.size(), 1u);
    EXPECT_EQ(generic.run.steps[0].index, 17);
    EXPECT_EQ(generic.run.steps[0].start_ns, 200000);
}

TEST(KinetoEvents, CountersUnknownCategoriesAndEscapes) {
    auto imp = import_text("misc.json", R"(
        {"ph":"C","name":"mem","pid":1,"ts":3,"args":{"allocated":100.5}},
        {"ph":"X","cat":"weird","name":"w","pid":1,"tid":1,"ts":1,"dur":1},
        {"ph":"X","cat":"cpu_op","name":"na\"me\u00e9\ud83d\ude00","pid":1,"tid":1,"ts":1,"dur":1},
        {"ph":"X","cat":"cpu_op","name":"no_ts","pid":1,"tid":1,"dur":1})");
    ASSERT_EQ(imp.run.counters.size(), 1u);
    EXPECT_EQ(imp.run.counters[0].time_ns, 3000);
    EXPECT_EQ(imp.run.counters[0].value, 100.5);
    EXPECT_EQ(imp.run.lanes[imp.run.counters[0].lane].kind, LaneKind::Counter);
    EXPECT_EQ(imp.run.lanes[imp.run.counters[0].lane].name, "mem");
    const Activity* w = find_named(imp.run, "w");
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(imp.run.lanes[w->lane].kind, LaneKind::StepTrack);
    ASSERT_NE(diagnostic(imp.run, "kineto_unknown_category"), nullptr);
    EXPECT_EQ(diagnostic(imp.run, "kineto_unknown_category")->value, 1.0);
    EXPECT_NE(find_named(imp.run, "na\"me\xC3\xA9\xF0\x9F\x98\x80"), nullptr);
    ASSERT_NE(diagnostic(imp.run, "kineto_malformed_events"), nullptr);
    EXPECT_EQ(diagnostic(imp.run, "kineto_malformed_events")->value, 1.0);
}

TEST(KinetoEvents, TwoGzipMembersReadAsOneDocument) {
    std::string doc =
        R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"first","pid":0,"tid":7,"ts":1,"dur":1},)"
        R"({"ph":"X","cat":"kernel","name":"second","pid":0,"tid":7,"ts":2.25,"dur":1}]})";
    std::size_t cut = doc.find("\"second\"");  // split inside an event
    std::string path =
        kineto_test::write_gzip_members("two.json.gz", {doc.substr(0, cut), doc.substr(cut)});
    auto imp = KinetoImporter().import_with_launches(path, {}, {});
    ASSERT_EQ(imp.run.activities.size(), 2u);
    EXPECT_EQ(find_named(imp.run, "second")->start_ns, 2250);
    EXPECT_EQ(imp.run.info.name, "two");
}

TEST(KinetoEvents, EventsAcrossManyChunksKeepExactSums) {
    // 30,000 events of ~120 bytes: several 1 MiB chunks, events cut at chunk edges.
    std::string events;
    for (int i = 0; i < 30000; ++i) {
        if (i) events += ",\n";
        events += R"({"ph":"X","cat":"kernel","name":"kernel_)" + std::to_string(i % 7) +
                  R"(","pid":0,"tid":7,"ts":)" + std::to_string(i) + ".001" + R"(,"dur":0.002})";
    }
    auto imp = import_text("many.json", events);
    ASSERT_EQ(imp.run.activities.size(), 30000u);
    std::int64_t sum_start = 0, sum_dur = 0;
    for (const auto& a : imp.run.activities) {
        sum_start += a.start_ns;
        sum_dur += a.duration_ns();
    }
    // sum of (1000 i + 1) for i < 30000 = 1000 * 29999 * 30000 / 2 + 30000
    EXPECT_EQ(sum_start, 1000LL * 29999 * 30000 / 2 + 30000);
    EXPECT_EQ(sum_dur, 2LL * 30000);
}

TEST(KinetoEvents, ProgressReportsBytesAndCancels) {
    std::string path = kineto_test::write_file(
        "progress.json",
        R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1,"dur":1}]})");
    std::int64_t last_done = 0, last_total = 0;
    KinetoImporter().import(path, {}, [&](std::int64_t done, std::int64_t total) {
        last_done = done;
        last_total = total;
        return true;
    });
    EXPECT_EQ(last_total, static_cast<std::int64_t>(std::filesystem::file_size(path)));
    EXPECT_EQ(last_done, last_total);
    EXPECT_THROW(
        KinetoImporter().import(path, {}, [](std::int64_t, std::int64_t) { return false; }),
        tokenscope::trace::Cancelled);
}

TEST(KinetoEvents, AcceptsKinetoHeadsOnly) {
    KinetoImporter k;
    EXPECT_TRUE(k.accepts("{\n  \"traceEvents\": ["));
    EXPECT_TRUE(k.accepts("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0"));
    EXPECT_FALSE(
        k.accepts("{\"date\": \"20240101-000000\", \"backend\": \"vllm\", \"ttfts\": []}"));
    EXPECT_FALSE(k.accepts("SQLite format 3"));
    EXPECT_FALSE(k.accepts("[{\"ph\": \"X\"}]"));
}

}  // namespace
