#include <gtest/gtest.h>

#include <limits>

#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"

namespace tokenscope::store {
namespace {

using test::sample_run;
using test::sorted_by_lane_start;
using test::TempDir;

void expect_same_strings(const trace::StringTable& want, const trace::StringTable& got) {
    ASSERT_EQ(got.size(), want.size());
    for (std::uint32_t i = 0; i < want.size(); ++i)
        EXPECT_EQ(got.str(i), want.str(i)) << "id " << i;
}

void expect_same_run(const trace::RunData& want, const trace::RunData& got) {
    EXPECT_EQ(got.info, want.info);
    EXPECT_EQ(got.lanes, want.lanes);
    expect_same_strings(want.strings, got.strings);
    ASSERT_EQ(got.activities.size(), want.activities.size());
    auto sorted = sorted_by_lane_start(want.activities);
    for (std::size_t i = 0; i < sorted.size(); ++i)
        ASSERT_EQ(got.activities[i], sorted[i]) << "activity " << i;
    EXPECT_EQ(got.steps, want.steps);
    EXPECT_EQ(got.requests, want.requests);
    EXPECT_EQ(got.counters, want.counters);
    EXPECT_EQ(got.diagnostics, want.diagnostics);
}

TEST(StoreRoundTrip, SeveralRunsInOneFileKeepEveryField) {
    TempDir dir;
    std::string path = dir.file("two.tokenscope");
    trace::RunData a = sample_run("first", 1);
    trace::RunData b = sample_run("second", 2);
    b.info.source = trace::Source::Nsys;
    b.info.clock = trace::ClockDomain::SourceFile;
    std::int64_t id_a = 0, id_b = 0;
    {
        StoreWriter writer(path);
        id_a = writer.write_run(a);
        id_b = writer.write_run(b);
    }
    EXPECT_NE(id_a, id_b);
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    // write_run stores a whole run, so it comes back complete with its store id.
    a.info.id = id_a;
    a.info.complete = true;
    b.info.id = id_b;
    b.info.complete = true;
    expect_same_run(a, reader.load_run(id_a));
    expect_same_run(b, reader.load_run(id_b));

    auto runs = reader.runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0].info, a.info);
    EXPECT_EQ(runs[1].info.name, "second");
    // sample_run: 10,000 iterations of api + kernel, plus a copy every 50th = 20,200.
    EXPECT_EQ(runs[0].activity_count, 20'200);
    EXPECT_EQ(runs[0].step_count, 4);
    EXPECT_EQ(runs[0].request_count, 2);
    EXPECT_EQ(runs[0].lane_count, 5);
}

TEST(StoreRoundTrip, ExtremeValuesAndEqualStartsSurvive) {
    TempDir dir;
    std::string path = dir.file("extreme.tokenscope");
    trace::RunData run;
    run.info.name = "extreme";
    run.lanes.resize(3);
    constexpr std::int64_t kNear62 = (1LL << 62) - 5;
    constexpr auto kMax64 = std::numeric_limits<std::uint64_t>::max();
    std::vector<trace::Activity>& v = run.activities;
    // Huge values, a negative duration, a correlation that falls (negative zig-zag delta).
    // FLOPs are a float: 2^64-1 rounds up to 2^64, is clamped to 2^64-1 on disk and
    // reads back as the same float.
    v.push_back({kNear62, kNear62 + 4, 1ULL << 40, static_cast<float>(kMax64), 0xffffffffu,
                 0xffffffffu, 2, trace::ActivityKind::Marker, trace::CopyKind::H2H});
    v.push_back(
        {kNear62, kNear62 - 1000, 0, 0, 1, 0, 2, trace::ActivityKind::Sync, trace::CopyKind::P2P});
    v.push_back({-5, std::numeric_limits<std::int64_t>::max(), 7, 7, 2, 5, 2,
                 trace::ActivityKind::Range, trace::CopyKind::D2D});
    v.push_back({std::numeric_limits<std::int64_t>::min(), 0, 1, 1, 3, 1, 2,
                 trace::ActivityKind::Memset, trace::CopyKind::D2H});
    // 10,000 activities on lane 1 with only 7 distinct starts, added out of order:
    // chunks of 4096 split runs of equal starts, whose order must still be kept.
    for (std::uint32_t i = 0; i < 10'000; ++i) {
        std::int64_t start = 1000 * ((i * 5) % 7);
        v.push_back({start, start + i, i, 0, i % 3, i, 1, trace::ActivityKind::Kernel,
                     trace::CopyKind::None});
    }
    // Lane 0 strictly in order, and an activity on the highest lane id.
    for (int i = 0; i < 5000; ++i)
        v.push_back(
            {i * 10LL, i * 10LL, 0, 0, 0, 0, 0, trace::ActivityKind::Api, trace::CopyKind::None});
    v.push_back({1, 2, 3, 4, 5, 6, 0xffff, trace::ActivityKind::Memcpy, trace::CopyKind::H2D});
    run.strings.intern("a");
    run.strings.intern("b");
    run.strings.intern("c");
    std::int64_t id = StoreWriter(path).write_run(run);
    trace::RunData got = StoreReader(path).load_run(id);
    run.info.id = id;
    run.info.complete = true;
    expect_same_run(run, got);
}

TEST(StoreRoundTrip, StringIdsArePreservedExactlyWithGapsAndDuplicates) {
    TempDir dir;
    std::string path = dir.file("strings.tokenscope");
    trace::RunData run;
    run.strings.intern("zero-is-empty-so-this-is-1");
    run.strings.assign(7, "seven");
    run.strings.assign(9, "seven");  // same text under another id
    run.activities.push_back(
        {0, 1, 0, 0, 9, 0, 0, trace::ActivityKind::Kernel, trace::CopyKind::None});
    run.lanes.resize(1);
    std::int64_t id = StoreWriter(path).write_run(run);
    trace::RunData got = StoreReader(path).load_run(id);
    ASSERT_EQ(got.strings.size(), 10u);
    EXPECT_EQ(got.strings.str(1), "zero-is-empty-so-this-is-1");
    EXPECT_EQ(got.strings.str(5), "");
    EXPECT_EQ(got.strings.str(7), "seven");
    EXPECT_EQ(got.strings.str(9), "seven");
    EXPECT_EQ(got.name_of(got.activities.at(0)), "seven");
}

TEST(StoreRoundTrip, StreamingRunWriterKeepsRecordsAndInfoUpdates) {
    TempDir dir;
    std::string path = dir.file("stream.tokenscope");
    trace::RunData want = sample_run("streamed", 3);
    StoreWriter writer(path);
    trace::RunInfo first = want.info;
    first.gpu = {};  // learnt later, as a capture does
    auto w = writer.begin_run(first);
    for (const auto& lane : want.lanes) w->add_lane(lane);
    // Interning through the writer assigns the same ids in the same order.
    for (std::uint32_t i = 1; i < want.strings.size(); ++i)
        EXPECT_EQ(w->intern(want.strings.str(i)), i);
    EXPECT_EQ(w->intern(want.strings.str(1)), 1u);
    for (const auto& a : want.activities) w->add_activity(a);
    for (const auto& s : want.steps) w->add_step(s);
    for (const auto& r : want.requests) w->add_request(r);
    for (const auto& c : want.counters) w->add_counter(c);
    for (const auto& d : want.diagnostics) w->add_diagnostic(d);
    w->update_info(want.info);
    EXPECT_EQ(w->activities_written(), 20'200);
    w->finish();
    want.info.id = w->run_id();
    want.info.complete = true;
    expect_same_run(want, StoreReader(path).load_run(w->run_id()));
}

TEST(StoreRoundTrip, UnfinishedRunLoadsWithCaptureIncompleteDiagnostic) {
    TempDir dir;
    std::string path = dir.file("unfinished.tokenscope");
    std::int64_t id = 0;
    {
        StoreWriter writer(path);
        auto w = writer.begin_run(sample_run("x", 4).info);
        id = w->run_id();
        w->add_lane({});
        w->add_activity({5, 9, 0, 0, 0, 0, 0, trace::ActivityKind::Kernel, trace::CopyKind::None});
        w->flush();
        EXPECT_EQ(w->committed_batches(), 1);
    }
    trace::RunData got = StoreReader(path).load_run(id);
    EXPECT_FALSE(got.info.complete);
    ASSERT_EQ(got.activities.size(), 1u);
    EXPECT_EQ(got.activities[0].end_ns, 9);
    ASSERT_EQ(got.diagnostics.size(), 1u);
    EXPECT_EQ(got.diagnostics[0].name, "capture_incomplete");
    EXPECT_EQ(got.diagnostics[0].severity, trace::Severity::DataLoss);
}

TEST(StoreRoundTrip, LoadRunReportsProgressAndCanBeCancelled) {
    TempDir dir;
    std::string path = dir.file("progress.tokenscope");
    trace::RunData run = sample_run("p", 5);
    std::int64_t id = StoreWriter(path).write_run(run);
    StoreReader reader(path);
    std::int64_t last_done = -1, last_total = -1;
    reader.load_run(id, [&](std::int64_t done, std::int64_t total) {
        EXPECT_GE(done, last_done);
        last_done = done;
        last_total = total;
        return true;
    });
    // 20,200 activities + 4 steps + 2 requests + 3 counter samples.
    EXPECT_EQ(last_total, 20'209);
    EXPECT_EQ(last_done, 20'209);
    EXPECT_THROW(reader.load_run(id, [](std::int64_t done, std::int64_t) { return done < 5000; }),
                 trace::Cancelled);
}

}  // namespace
}  // namespace tokenscope::store
