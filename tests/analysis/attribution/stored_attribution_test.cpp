// The record of a run's analysis its file keeps (stored_attribution.h, the step_attribution
// table): what is read back is what was written, by hand; steps framed anew, other options
// or a damaged record never pass for the run's analysis. stored_analysis_test holds the
// record that attribute_stored_runs makes equal to the whole-run analysis on real traces.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "analysis/attribution/attribution_record.h"
#include "analysis/attribution/stored_attribution.h"
#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "support/activity_builder.h"
#include "support/temp_dir.h"

namespace tokenscope::analysis {
namespace {

using trace::ActivityKind;

// Two decode steps of 1,000 ns on one GPU stream, a kernel in each.
trace::RunData two_steps() {
    trace::RunData run;
    run.info.name = "two steps";
    run.lanes.resize(2);
    run.lanes[1].kind = trace::LaneKind::GpuStream;
    run.activities = {test::act(1, ActivityKind::Kernel, 100, 600),
                      test::act(1, ActivityKind::Kernel, 1'200, 1'500)};
    for (std::int64_t s : {0, 1'000}) {
        trace::Step step;
        step.start_ns = s;
        step.end_ns = s + 1'000;
        step.phase = trace::Phase::Decode;
        run.steps.push_back(step);
    }
    return run;
}

// A record no analysis would give (every nanosecond to scheduling, 7 ns hidden), so a
// read that returns it read the record and computed nothing.
AttributionRecord by_hand() {
    AttributionRecord r;
    for (std::int64_t s : {0, 1'000}) {
        StepAttribution a{s, s + 1'000, {}, {}};
        a.assigned[static_cast<std::size_t>(Category::Scheduling)] = 1'000;
        a.hidden[static_cast<std::size_t>(Category::GpuMemory)] = 7;
        r.steps.push_back(a);
        RoleTimes roles;
        roles.ns[static_cast<std::size_t>(KernelRole::Sampling)] = 11 + s;
        r.step_roles.push_back(roles);
    }
    r.run_roles.ns[static_cast<std::size_t>(KernelRole::Other)] = 4'242;
    r.gpu_busy_ns = 800;
    r.launch_delay = {123.5, 1.0 / 128};
    return r;
}

struct File {
    test::TempDir dir;
    std::string path = dir.file("kept.tokenscope");
    std::int64_t run = 0;
    File() { run = store::StoreWriter(path).write_run(two_steps()); }
    void keep(const std::vector<std::vector<std::uint8_t>>& chunks,
              const AttributionOptions& options = {}) const {
        store::StoreWriter(path).write_step_attribution(run, attribution_record_key(options),
                                                        chunks);
    }
    std::optional<RunAnalysis> read() const {
        const store::StoreReader reader(path, {.check_whole_file = false});
        const auto light =
            reader.load_run(run, {}, store::StoreReader::LoadParts::TotalsForActivities);
        return read_stored_analysis(reader, light);
    }
};

TEST(StoredAttribution, WhatIsKeptIsWhatIsRead) {
    File f;
    EXPECT_FALSE(f.read());  // nothing kept yet
    f.keep(encode_attribution_record(by_hand()));
    const auto got = f.read();
    ASSERT_TRUE(got);
    ASSERT_EQ(got->steps.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(got->steps[i].assigned, by_hand().steps[i].assigned);
        EXPECT_EQ(got->steps[i].hidden, by_hand().steps[i].hidden);
    }
    EXPECT_EQ(got->assessment.summary.total_ns, 2'000);
    EXPECT_EQ(got->assessment.summary.share[static_cast<std::size_t>(Category::Scheduling)], 1.0);
    EXPECT_EQ(got->roles.steps.at(1).ns[static_cast<std::size_t>(KernelRole::Sampling)], 1'011);
    EXPECT_EQ(got->roles.run.ns[static_cast<std::size_t>(KernelRole::Other)], 4'242);
    // Phases are made again from the steps: both decode, their sampling means (11 + 1011) / 2.
    ASSERT_EQ(got->roles.phases.size(), 1u);
    EXPECT_EQ(got->roles.phases[0].mean_ns[static_cast<std::size_t>(KernelRole::Sampling)], 511.0);
    const RuleResult& launch = got->assessment.verdict.rules.at(2);
    EXPECT_EQ(launch.name, "launch_delay_p95_ns");
    EXPECT_EQ(launch.value, 123.5);
    EXPECT_EQ(launch.relative_error, 1.0 / 128);
}

TEST(StoredAttribution, AttributingTwiceWritesOnce) {
    File f;
    EXPECT_EQ(attribute_stored_runs(f.path, {f.run}), 1u);
    EXPECT_EQ(attribute_stored_runs(f.path, {f.run}), 0u);
    const auto got = f.read();
    ASSERT_TRUE(got);
    // By hand: step 0 has its kernel 500 ns of 1,000, step 1 300 ns.
    const auto compute = static_cast<std::size_t>(Category::GpuCompute);
    const auto scheduling = static_cast<std::size_t>(Category::Scheduling);
    EXPECT_EQ(got->steps.at(0).assigned[compute], 500);
    EXPECT_EQ(got->steps.at(0).assigned[scheduling], 500);
    EXPECT_EQ(got->steps.at(1).assigned[compute], 300);
    EXPECT_EQ(got->steps.at(1).assigned[scheduling], 700);
}

TEST(StoredAttribution, OtherStepsOrOptionsReadNothing) {
    File f;
    AttributionRecord shifted = by_hand();
    shifted.steps[1].start_ns += 1;
    shifted.steps[1].assigned[static_cast<std::size_t>(Category::Scheduling)] -= 1;
    f.keep(encode_attribution_record(shifted));
    EXPECT_FALSE(f.read());  // steps framed otherwise than the run's
    AttributionOptions other;
    other.name_rules.pop_back();
    File g;
    g.keep(encode_attribution_record(by_hand()), other);
    EXPECT_FALSE(g.read());  // kept for other rules
    EXPECT_NE(attribution_record_key(other), attribution_record_key({}));
}

// Patterns that would run together unquoted ("a" + "b;c" and "a;b" + "c") stay apart.
TEST(StoredAttribution, KeysKeepPatternsApart) {
    AttributionOptions one, two;
    one.name_rules = {{"a", Category::GpuMemory}, {"b c", Category::GpuMemory}};
    two.name_rules = {{"a b", Category::GpuMemory}, {"c", Category::GpuMemory}};
    EXPECT_NE(attribution_record_key(one), attribution_record_key(two));
}

TEST(StoredAttribution, ManyStepsSpanChunks) {
    AttributionRecord r;
    const std::size_t n = 2 * kStepsPerChunk + 5;
    for (std::size_t i = 0; i < n; ++i) {
        // Out of order and far apart: start deltas negative and wide.
        const std::int64_t start = (i % 2 == 0 ? 1 : -1) * static_cast<std::int64_t>(i) << 40;
        StepAttribution a{start, start + static_cast<std::int64_t>(i), {}, {}};
        a.assigned[static_cast<std::size_t>(Category::Cpu)] = static_cast<std::int64_t>(i);
        a.hidden[0] = std::numeric_limits<std::int64_t>::max();
        r.steps.push_back(a);
        r.step_roles.emplace_back();
    }
    r.iterations = UnionAttribution{5, {1, 1, 1, 1, 1, 0}, {}};
    const auto chunks = encode_attribution_record(r);
    EXPECT_EQ(chunks.size(), 4u);
    const AttributionRecord back = decode_attribution_record(chunks, "x.tokenscope");
    ASSERT_EQ(back.steps.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(back.steps[i].start_ns, r.steps[i].start_ns) << i;
        EXPECT_EQ(back.steps[i].end_ns, r.steps[i].end_ns) << i;
        EXPECT_EQ(back.steps[i].hidden, r.steps[i].hidden) << i;
    }
    ASSERT_TRUE(back.iterations);
    EXPECT_EQ(back.iterations->assigned, r.iterations->assigned);
    EXPECT_FALSE(back.launch_delay.ns);
}

void expect_corrupt(const std::vector<std::vector<std::uint8_t>>& chunks, const char* what) {
    try {
        decode_attribution_record(chunks, "/data/run.tokenscope");
        ADD_FAILURE() << what << " decoded";
    } catch (const store::StoreError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("/data/run.tokenscope"), std::string::npos) << m;
        EXPECT_NE(m.find("corrupt file: step_attribution"), std::string::npos) << m;
    }
}

TEST(StoredAttribution, DamagedRecordsAreRefused) {
    const auto good = encode_attribution_record(by_hand());
    expect_corrupt({}, "no chunk");
    auto cut = good;
    cut[1].pop_back();
    expect_corrupt(cut, "a chunk cut short");
    auto longer = good;
    longer[0].push_back(0);
    expect_corrupt(longer, "trailing bytes");
    auto missing = good;
    missing.pop_back();
    expect_corrupt(missing, "a missing chunk");
    // A part bumped: step 0's parts no longer sum to its length.
    AttributionRecord uneven = by_hand();
    uneven.steps[0].assigned[0] = 1;
    expect_corrupt(encode_attribution_record(uneven), "parts that do not sum");
    auto forged = good;
    forged[0][0] = 0x7e;  // 63 steps claimed in a record of two
    expect_corrupt(forged, "a forged step count");
}

TEST(StoredAttribution, ARecordWithoutItsStepsFailsTheRead) {
    File f;
    auto chunks = encode_attribution_record(by_hand());
    f.keep(chunks);
    chunks.pop_back();  // written again without the chunk of its two steps
    f.keep(chunks);
    EXPECT_THROW(f.read(), store::StoreError);
    EXPECT_THROW(store::StoreWriter(f.path).write_step_attribution(f.run + 1, "x", chunks),
                 store::StoreError);  // no such run
}

}  // namespace
}  // namespace tokenscope::analysis
