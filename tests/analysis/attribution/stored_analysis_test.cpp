// analyse_stored_run (DESIGN.md section 17): a run left in its file, analysed slice by
// slice in bounded memory, gives what analyse_run gives on the same run read whole, to
// the nanosecond: the expected values are the whole-run computation's, on the run as
// the store reads it back whole. Real traces from ../shared/fixtures (vLLM and SGLang
// iterations whose windows overlap, HTA's training ranks, an nsys export) and serving
// runs of bench/make_large_run.h (CUDA graphs, eager prefills, NCCL on every GPU), cut
// into slices from a few hundred activities to one. The same for the record a file keeps
// of the analysis (stored_attribution.h), read back.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/attribution/run_analysis.h"
#include "analysis/attribution/stored_analysis.h"
#include "analysis/attribution/stored_attribution.h"
#include "import/open_any.h"
#include "make_large_run.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "support/activity_builder.h"
#include "support/fixtures.h"
#include "support/temp_dir.h"

namespace tokenscope::analysis {
namespace {

void expect_same(const RunAnalysis& got, const RunAnalysis& want) {
    ASSERT_EQ(got.steps.size(), want.steps.size());
    for (std::size_t i = 0; i < want.steps.size(); ++i) {
        EXPECT_EQ(got.steps[i].start_ns, want.steps[i].start_ns) << "step " << i;
        EXPECT_EQ(got.steps[i].end_ns, want.steps[i].end_ns) << "step " << i;
        EXPECT_EQ(got.steps[i].assigned, want.steps[i].assigned) << "step " << i;
        EXPECT_EQ(got.steps[i].hidden, want.steps[i].hidden) << "step " << i;
    }
    const auto& g = got.assessment;
    const auto& w = want.assessment;
    EXPECT_EQ(g.summary.total_ns, w.summary.total_ns);
    EXPECT_EQ(g.summary.assigned_ns, w.summary.assigned_ns);
    EXPECT_EQ(g.summary.hidden_ns, w.summary.hidden_ns);
    EXPECT_EQ(g.summary.share, w.summary.share);
    EXPECT_EQ(g.summary.p95_ns, w.summary.p95_ns);
    ASSERT_EQ(g.phases.size(), w.phases.size());
    for (std::size_t i = 0; i < w.phases.size(); ++i) {
        EXPECT_EQ(g.phases[i].count, w.phases[i].count);
        EXPECT_EQ(g.phases[i].mean_category_ns, w.phases[i].mean_category_ns);
    }
    EXPECT_EQ(g.floor.distance_ns.count, w.floor.distance_ns.count);
    EXPECT_EQ(g.verdict.primary, w.verdict.primary);
    EXPECT_EQ(g.verdict.bound_by, w.verdict.bound_by);
    EXPECT_EQ(g.verdict.advice, w.verdict.advice);
    EXPECT_EQ(g.verdict.achieved_bandwidth_fraction, w.verdict.achieved_bandwidth_fraction);
    ASSERT_EQ(g.verdict.rules.size(), w.verdict.rules.size());
    for (std::size_t i = 0; i < w.verdict.rules.size(); ++i) {
        EXPECT_EQ(g.verdict.rules[i].available, w.verdict.rules[i].available)
            << w.verdict.rules[i].name;
        EXPECT_EQ(g.verdict.rules[i].value, w.verdict.rules[i].value) << w.verdict.rules[i].name;
        EXPECT_EQ(g.verdict.rules[i].relative_error, 0.0) << w.verdict.rules[i].name;
    }
    ASSERT_EQ(got.roles.steps.size(), want.roles.steps.size());
    for (std::size_t i = 0; i < want.roles.steps.size(); ++i)
        EXPECT_EQ(got.roles.steps[i].ns, want.roles.steps[i].ns) << "step " << i;
    EXPECT_EQ(got.roles.run.ns, want.roles.run.ns);
    ASSERT_EQ(got.roles.phases.size(), want.roles.phases.size());
}

// Whole and light loads of every run in `path`, compared at each slice size.
std::string write_generated(const test::TempDir& dir, const bench::LargeRunOptions& options) {
    const std::string path = dir.file("large.tokenscope");
    store::StoreWriter writer(path);
    trace::RunInfo info;
    info.name = "large";
    auto out = writer.begin_run(info);
    bench::LargeRunGenerator(*out, options).run();
    out->finish();
    return path;
}

void check_file(const std::string& path, const std::vector<std::int64_t>& slice_sizes) {
    store::StoreReader reader(path);
    for (std::int64_t id : reader.run_ids()) {
        const trace::RunData whole = reader.load_run(id);
        const RunAnalysis want = analyse_run(whole);
        const trace::RunData light =
            reader.load_run(id, {}, store::StoreReader::LoadParts::TotalsForActivities);
        ASSERT_TRUE(light.in_file.has_value()) << path;
        ASSERT_TRUE(light.activities.empty());
        ASSERT_GT(whole.activities.size(), 0u);
        for (std::int64_t per_slice : slice_sizes) {
            SCOPED_TRACE(path + ", " + std::to_string(per_slice) + " activities a slice");
            std::int64_t slices = 0;
            StoredAnalysisOptions options;
            options.slice_activities = per_slice;
            const RunAnalysis got =
                analyse_stored_run(reader, light, options, [&](std::int64_t, std::int64_t total) {
                    slices = total;
                    return true;
                });
            expect_same(got, want);
            const auto n = static_cast<std::int64_t>(whole.activities.size());
            EXPECT_EQ(slices, (n + per_slice - 1) / per_slice);
        }
        // The record the file keeps (stored_attribution.h) gives the same once read back.
        EXPECT_FALSE(read_stored_analysis(reader, light));
        StoredAnalysisOptions options;
        options.slice_activities = 4'096;
        EXPECT_EQ(attribute_stored_runs(path, {id}, options), 1u);
        SCOPED_TRACE(path + ", read from its record");
        const auto kept = read_stored_analysis(reader, light);
        ASSERT_TRUE(kept);
        expect_same(*kept, want);
    }
}

std::string store_fixture(const test::TempDir& dir, const std::string& rel,
                          const std::string& step_pattern) {
    const std::string out = dir.file("fixture.tokenscope");
    import::ImportOptions options;
    options.step_pattern = step_pattern;
    auto runs = import::open_any(test::fixture_path(rel), options);
    store::StoreWriter writer(out);
    for (const auto& run : runs) writer.write_run(run);
    return out;
}

struct Fixture {
    const char* file;
    const char* step_pattern;  // empty: the importer's presets
    std::size_t min_steps;     // what the file holds (../shared/fixtures/README.md)
};

void PrintTo(const Fixture& f, std::ostream* os) {
    *os << f.file << (*f.step_pattern ? std::string(" steps ") + f.step_pattern : "");
}

class StoredAnalysisFixture : public testing::TestWithParam<Fixture> {};

TEST_P(StoredAnalysisFixture, SlicesAddUpToTheWholeRun) {
    const Fixture f = GetParam();
    TOKENSCOPE_NEED_FIXTURE_FILE(test::fixture_path(f.file));
    test::TempDir dir;
    const std::string path = store_fixture(dir, f.file, f.step_pattern);
    {
        store::StoreReader reader(path);
        ASSERT_GE(reader.load_run(reader.run_ids().at(0)).steps.size(), f.min_steps);
    }
    check_file(path, {1'000, 20'000, 1 << 30});
}

// Each engine trace holds one iteration, whose window overlaps the next's GPU work; the
// V100 training step is cut into its 15 phase annotations and into its 1,600
// aten::copy_ ops (nested, overlapping, many per slice and across slices).
INSTANTIATE_TEST_SUITE_P(
    RealTraces, StoredAnalysisFixture,
    testing::Values(
        Fixture{"engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz", "", 1},
        Fixture{"engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz", "", 1},
        Fixture{"engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz", "", 1},
        Fixture{"engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz", "", 1},
        Fixture{"kineto/hta_inference_rank_1.json.gz", "", 0},
        Fixture{"kineto/hta_a100_cupti_profiler.json.gz", "", 0},
        Fixture{"kineto/hta_v100_ns_resolution_rank0.json.gz",
                "^## (forward|backward|optimizer) ##$", 15},
        Fixture{"kineto/hta_v100_ns_resolution_rank0.json.gz", "^aten::copy_$", 1'600},
        Fixture{"nsys/pipit_a100x4_cloverleaf.sqlite", "", 0}));

struct Generated {
    std::uint64_t activities;
    int gpus;
    int layers;
    std::uint64_t seed;
};

void PrintTo(const Generated& g, std::ostream* os) {
    *os << g.activities << " activities, " << g.gpus << " GPUs, " << g.layers << " layers";
}

class StoredAnalysisGenerated : public testing::TestWithParam<Generated> {};

TEST_P(StoredAnalysisGenerated, SlicesAddUpToTheWholeRun) {
    const Generated g = GetParam();
    test::TempDir dir;
    check_file(
        write_generated(
            dir, {.activities = g.activities, .gpus = g.gpus, .layers = g.layers, .seed = g.seed}),
        {333, 4'096, 1 << 30});
}

INSTANTIATE_TEST_SUITE_P(Serving, StoredAnalysisGenerated,
                         testing::Values(Generated{40'000, 2, 4, 1}, Generated{60'000, 8, 3, 7},
                                         Generated{25'000, 1, 6, 3}));

// Past its exact budget the launch-delay P95 comes from a histogram: within the bound it
// states of the exact P95, which the whole-run computation gives.
TEST(StoredAnalysis, ManyLaunchDelaysKeepTheirBound) {
    test::TempDir dir;
    const std::string path =
        write_generated(dir, {.activities = 40'000, .gpus = 2, .layers = 4, .seed = 5});
    store::StoreReader reader(path);
    const std::int64_t id = reader.run_ids().at(0);
    const RuleResult exact = analyse_run(reader.load_run(id)).assessment.verdict.rules.at(2);
    ASSERT_EQ(exact.name, "launch_delay_p95_ns");
    ASSERT_TRUE(exact.available);
    ASSERT_GT(exact.value, 0.0);
    StoredAnalysisOptions options;
    options.slice_activities = 5'000;
    options.exact_launch_delays = 100;
    const trace::RunData light =
        reader.load_run(id, {}, store::StoreReader::LoadParts::TotalsForActivities);
    const RuleResult got =
        analyse_stored_run(reader, light, options).assessment.verdict.rules.at(2);
    EXPECT_EQ(got.relative_error, 1.0 / 128);
    EXPECT_NEAR(got.value, exact.value, exact.value * got.relative_error);
    EXPECT_EQ(got.threshold, exact.threshold);
}

// The launch-delay rule's corners, by hand (docs/attribution.md, Verdicts): a graph whose
// earliest kernel is on the later lane, a queue that explains part of the wait, a kernel
// that starts before its call (a clock step), a call traced twice, a kernel with no call,
// and kernels at the horizon (kLaunchHorizonNs) from their call: 10 s after it measured,
// 10 s and 1 ns before or after it not.
TEST(StoredAnalysis, LaunchDelaysByHand) {
    using test::act;
    using trace::ActivityKind;
    trace::RunData run;
    run.info.name = "launches";
    run.lanes.resize(3);
    for (std::size_t lane : {1, 2}) {
        run.lanes[lane].kind = trace::LaneKind::GpuStream;
        run.lanes[lane].device = 0;
    }
    auto call = [](std::int64_t start, std::uint32_t corr) {
        return act(0, ActivityKind::Api, start, start + 50, {.correlation = corr});
    };
    auto kernel = [](std::uint16_t lane, std::int64_t start, std::int64_t end, std::uint32_t corr) {
        return act(lane, ActivityKind::Kernel, start, end, {.correlation = corr});
    };
    run.activities = {
        call(0, 7),
        call(1'000, 8),
        call(2'500, 9),
        call(3'000, 10),
        call(3'100, 10),
        kernel(1, 500, 600, 7),
        kernel(1, 1'050, 1'200, 8),   // queued behind 7's kernel until 600: waits 1050 - 1000
        kernel(1, 3'400, 3'500, 10),  // the earlier of its two calls: 400
        kernel(2, 300, 400, 7),       // 7's first kernel by start: 300, the other 0
        kernel(2, 2'000, 2'100, 9),   // before its call: 0
        kernel(2, 4'000, 4'100, 11),  // no call: not measured
        call(20'000'000'000, 12),
        kernel(1, 30'000'000'001, 30'000'000'100, 12),  // 10 s and 1 ns after: not measured
        kernel(2, 40'000'000'000, 40'000'000'100, 13),  // 10 s and 1 ns before: not measured
        call(50'000'000'001, 13),
        call(70'000'000'000, 14),
        kernel(1, 80'000'000'000, 80'000'000'100, 14),  // 10 s after, queue long empty
    };
    // Delays {300, 0, 50, 0, 400, 10^10}: P95 at rank 0.95 * 5 = 4.75 between 400 and 10^10.
    const double want = 400.0 + 0.75 * (10'000'000'000.0 - 400.0);
    test::TempDir dir;
    const std::string path = dir.file("launches.tokenscope");
    store::StoreWriter(path).write_run(run);
    store::StoreReader reader(path);
    const std::int64_t id = reader.run_ids().at(0);
    EXPECT_EQ(analyse_run(reader.load_run(id)).assessment.verdict.rules.at(2).value, want);
    const trace::RunData light =
        reader.load_run(id, {}, store::StoreReader::LoadParts::TotalsForActivities);
    ASSERT_TRUE(light.in_file);
    // One slice, and one per activity (the clock-stepped kernel and its call apart).
    for (std::int64_t per_slice : {std::int64_t{1} << 30, std::int64_t{1}}) {
        StoredAnalysisOptions options;
        options.slice_activities = per_slice;
        const RuleResult got =
            analyse_stored_run(reader, light, options).assessment.verdict.rules.at(2);
        EXPECT_TRUE(got.available) << per_slice;
        EXPECT_EQ(got.value, want) << per_slice;
        EXPECT_EQ(got.relative_error, 0.0);
    }
}

}  // namespace
}  // namespace tokenscope::analysis
