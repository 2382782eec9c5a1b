// stored_activity_figures (DESIGN.md section 17): what `diff` reads of a run's activities,
// read from its .tokenscope file a stretch of time at a time, against the same figures
// computed on the run read whole (name_stats, iteration_window_times). Counts, totals,
// means and the iteration windows' split are the same to the last bit; each name's P95 is
// within the bound it states of the exact one. Real traces from ../shared/fixtures (vLLM
// and SGLang iterations whose windows overlap the next's GPU work, HTA's training rank cut
// into its 1,600 nested aten::copy_ ranges) and a serving run of bench/make_large_run.h,
// cut into stretches from a few hundred activities to one.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/compare/diff.h"
#include "analysis/compare/stored_diff.h"
#include "import/open_any.h"
#include "make_large_run.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "support/fixtures.h"
#include "support/temp_dir.h"

namespace tokenscope::analysis {
namespace {

void expect_names(const std::vector<NameStats>& got, const std::vector<NameStats>& want,
                  const trace::RunData& run) {
    std::int64_t names = 0;
    for (std::size_t id = 0; id < std::max(got.size(), want.size()); ++id) {
        const NameStats g = id < got.size() ? got[id] : NameStats{};
        const NameStats w = id < want.size() ? want[id] : NameStats{};
        SCOPED_TRACE(std::string(run.strings.str(static_cast<std::uint32_t>(id))));
        EXPECT_EQ(g.count, w.count);
        EXPECT_EQ(g.total_ns, w.total_ns);
        EXPECT_EQ(g.mean_ns, w.mean_ns);
        if (w.count == 0) continue;
        ++names;
        EXPECT_EQ(g.p95_error, store::DurationHistogram::kRelativeError);
        EXPECT_LE(std::abs(g.p95_ns - w.p95_ns), g.p95_error * w.p95_ns + 1e-9)
            << g.p95_ns << " vs " << w.p95_ns;
    }
    EXPECT_GT(names + static_cast<std::int64_t>(want.empty()), 0);
}

void check_file(const std::string& path, const std::vector<std::int64_t>& stretch_sizes) {
    store::StoreReader reader(path);
    for (std::int64_t id : reader.run_ids()) {
        const trace::RunData whole = reader.load_run(id);
        const trace::RunData light =
            reader.load_run(id, {}, store::StoreReader::LoadParts::TotalsForActivities);
        ASSERT_TRUE(light.in_file.has_value()) << path;
        const auto kernels = name_stats(whole, trace::ActivityKind::Kernel);
        const auto ranges = name_stats(whole, trace::ActivityKind::Range);
        const auto times = iteration_window_times(whole);
        for (const std::int64_t size : stretch_sizes) {
            SCOPED_TRACE(path + ", " + std::to_string(size) + " activities a stretch");
            std::int64_t stretches = 0;
            const ActivityFigures got = stored_activity_figures(
                reader, light,
                [&](std::int64_t, std::int64_t total) {
                    stretches = total;
                    return true;
                },
                {}, size);
            EXPECT_GE(stretches, 1);
            if (size < static_cast<std::int64_t>(whole.activities.size()) / 4) {
                EXPECT_GT(stretches, 2);
            }
            expect_names(got.kernels, kernels, whole);
            expect_names(got.ranges, ranges, whole);
            ASSERT_EQ(got.window_times.size(), times.size());
            for (std::size_t i = 0; i < times.size(); ++i) {
                EXPECT_EQ(got.window_times[i].idle_ns, times[i].idle_ns) << "step " << i;
                EXPECT_EQ(got.window_times[i].role_ns, times[i].role_ns) << "step " << i;
            }
        }
    }
}

struct Fixture {
    const char* file;
    const char* step_pattern;  // empty: the importer's presets
};

void PrintTo(const Fixture& f, std::ostream* os) {
    *os << f.file << (*f.step_pattern ? std::string(" steps ") + f.step_pattern : "");
}

class StoredDiffFixture : public testing::TestWithParam<Fixture> {};

TEST_P(StoredDiffFixture, StretchesGiveTheWholeRunsFigures) {
    const Fixture f = GetParam();
    TOKENSCOPE_NEED_FIXTURE_FILE(test::fixture_path(f.file));
    test::TempDir dir;
    const std::string path = dir.file("fixture.tokenscope");
    import::ImportOptions options;
    options.step_pattern = f.step_pattern;
    {
        store::StoreWriter writer(path);
        for (const auto& run : import::open_any(test::fixture_path(f.file), options))
            writer.write_run(run);
    }
    check_file(path, {300, 5'000, 1 << 30});
}

INSTANTIATE_TEST_SUITE_P(
    RealTraces, StoredDiffFixture,
    testing::Values(Fixture{"engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz", ""},
                    Fixture{"engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz", ""},
                    Fixture{"engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz", ""},
                    Fixture{"kineto/hta_v100_ns_resolution_rank0.json.gz", "^aten::copy_$"}));

// A serving run of 8 GPUs: iterations of prefill and decode whose windows stretches cut.
TEST(StoredDiff, AServingRunsStretchesGiveItsFigures) {
    test::TempDir dir;
    const std::string path = dir.file("large.tokenscope");
    {
        store::StoreWriter writer(path);
        trace::RunInfo info;
        info.name = "large";
        auto out = writer.begin_run(info);
        bench::LargeRunGenerator(*out, {.activities = 60'000, .gpus = 8, .layers = 3, .seed = 7})
            .run();
        out->finish();
    }
    check_file(path, {333, 4'096, 1 << 30});
}

}  // namespace
}  // namespace tokenscope::analysis
