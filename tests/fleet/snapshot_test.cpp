// /metrics snapshots (docs/fleet.md, Snapshots) read by profiler/fleet: one scrape
// of vLLM or SGLang gives the quantiles of the cumulative buckets, computed in this
// test as histogram_quantile does; two scrapes an hour apart give the window between
// them; a counter reset starts a new baseline and says so; a bad file names its line.
// The engines' presets are the names their code registers (metric_presets.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "fleet/fleet_error.h"
#include "fleet/fleet_source.h"
#include "fleet/metrics_snapshot.h"
#include "snapshot_scrapes.h"
#include "support/temp_dir.h"

namespace tokenscope::fleet_test {
namespace {

namespace fs = std::filesystem;
using fleet::FleetMatrix;
using fleet::FleetSpec;

constexpr std::int64_t kT0 = 1'764'612'000;  // 2025-12-01T18:00:00Z
constexpr std::int64_t kStarted = kT0 - 10 * 3600 + 17;

class Snapshot : public ::testing::Test {
  protected:
    std::string write(const std::string& name, const std::string& text) const {
        return dir_.write(name, text);
    }
    static FleetSpec spec(const std::string& key, const std::string& by = "model_name") {
        FleetSpec s;
        fleet::set_metric(s, key, std::nullopt);
        s.by = by;
        return s;
    }
    tokenscope::test::TempDir dir_{"tokenscope_snapshot"};
};

const Counts kEngine0 = lognormal_counts(kVllmTtftBounds, 1200, 0.18, 0.6);
const Counts kEngine1 = lognormal_counts(kVllmTtftBounds, 800, 0.25, 0.7);

std::string timed(std::int64_t at, const std::string& scrape) {
    return "# scraped at " + fleet::format_rfc3339(at) + "\n" + scrape;
}

void expect_cell(const FleetMatrix& m, std::size_t row, std::size_t column,
                 std::optional<double> want_s) {
    ASSERT_TRUE(want_s);
    const auto& got = m.map.at(row, column).value;
    ASSERT_TRUE(got) << "row " << row << " column " << column;
    EXPECT_NEAR(*got, *want_s * 1e9, *want_s * 1e9 * 1e-12) << "row " << row;
}

TEST_F(Snapshot, OneVllmScrapeGivesTheQuantilesSinceTheServerStarted) {
    const std::string file =
        write("vllm.prom",
              timed(kT0, vllm_scrape({{"0", kEngine0, kStarted}, {"1", kEngine1, kStarted}})));
    for (double q : {0.5, 0.95, 0.99}) {
        FleetSpec s = spec("ttft");
        s.quantile = q;
        const FleetMatrix m = fleet::read_fleet_file(file, s, std::nullopt);
        ASSERT_TRUE(m.snapshot);
        EXPECT_TRUE(m.snapshot->since_start);
        ASSERT_EQ(m.map.row_count(), 1u);
        ASSERT_EQ(m.window_end_s, std::vector<std::int64_t>{kT0});
        EXPECT_EQ(m.map.row_labels[0], kVllmModel);
        // sum by (le, model_name): the two engines' buckets add.
        expect_cell(m, 0, 0, scrape_quantile(q, kVllmTtftBounds, plus(kEngine0, kEngine1)));
        EXPECT_EQ(m.map.at(0, 0).count, 2000);
    }
    // One row per engine core.
    FleetSpec by_engine = spec("ttft", "engine");
    const FleetMatrix m = fleet::read_fleet_file(file, by_engine, std::nullopt);
    ASSERT_EQ(m.map.row_count(), 2u);
    expect_cell(m, 0, 0, scrape_quantile(0.95, kVllmTtftBounds, kEngine0));
    expect_cell(m, 1, 0, scrape_quantile(0.95, kVllmTtftBounds, kEngine1));
}

TEST_F(Snapshot, TheServerStartIsTheEarliestCreatedOrTheProcessStart) {
    const std::string created =
        write("created.prom",
              timed(kT0, vllm_scrape({{"0", kEngine0, kStarted}, {"1", kEngine1, kStarted + 5}})));
    const FleetMatrix m = fleet::read_fleet_file(created, spec("ttft"), std::nullopt);
    EXPECT_EQ(m.snapshot->start_s, kStarted);
    EXPECT_EQ(m.window_start_s(0), kStarted);
    EXPECT_EQ(m.window_width_s(0), kT0 - kStarted);
    // SGLang's multiprocess exposition has no _created: the process start, if any.
    const Counts ttft = lognormal_counts(kSglangTtftBounds, 500, 0.9, 0.8);
    const std::string bare = write("bare.prom", timed(kT0, sglang_scrape(ttft)));
    EXPECT_FALSE(fleet::read_fleet_file(bare, spec("ttft"), std::nullopt).snapshot->start_s);
    const std::string process =
        write("process.prom",
              timed(kT0, "process_start_time_seconds 1.7646e+09\n" + sglang_scrape(ttft)));
    EXPECT_EQ(fleet::read_fleet_file(process, spec("ttft"), std::nullopt).snapshot->start_s,
              1'764'600'000);
}

TEST_F(Snapshot, OneSglangScrapeIsFoundByThePresetAndGivesItsQuantiles) {
    const Counts ttft = lognormal_counts(kSglangTtftBounds, 500, 0.9, 0.8);
    const std::string file = write("sglang.prom", sglang_scrape(ttft));
    for (double q : {0.5, 0.9, 0.95, 0.999}) {
        FleetSpec s = spec("ttft");  // vLLM's name first: not in the file, SGLang's is
        s.quantile = q;
        const FleetMatrix m = fleet::read_fleet_files({file}, s, {std::nullopt, {kT0}});
        EXPECT_EQ(m.spec.metric, "sglang:time_to_first_token_seconds");
        ASSERT_EQ(m.map.row_count(), 1u);
        EXPECT_EQ(m.map.row_labels[0], kSglangModel);
        EXPECT_EQ(m.window_end_s.back(), kT0);
        EXPECT_EQ(m.snapshot->scrapes[0].time_source, "--at");
        expect_cell(m, 0, 0, scrape_quantile(q, kSglangTtftBounds, ttft));
    }
}

TEST_F(Snapshot, WithoutATimeTheScrapeIsWhenTheFileWasWritten) {
    const std::string file =
        write("mtime.prom",
              sglang_scrape({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}));
    fs::last_write_time(file, fs::file_time_type::clock::now() - std::chrono::hours(2));
    const auto written = fs::last_write_time(file);
    const FleetMatrix m = fleet::read_fleet_file(file, spec("ttft"), std::nullopt);
    EXPECT_EQ(m.snapshot->scrapes[0].time_source, "file time");
    const auto sys = std::chrono::file_clock::to_sys(written);
    EXPECT_EQ(m.window_end_s[0],
              std::chrono::duration_cast<std::chrono::seconds>(sys.time_since_epoch()).count());
}

TEST_F(Snapshot, TwoScrapesAnHourApartGiveTheWindowBetweenThem) {
    // In that hour engine 0 saw 600 slower requests, engine 1 none.
    const Counts hour0 = lognormal_counts(kVllmTtftBounds, 600, 0.6, 0.5);
    const std::string first = vllm_scrape({{"0", kEngine0, kStarted}, {"1", kEngine1, kStarted}});
    const std::string second =
        vllm_scrape({{"0", plus(kEngine0, hour0), kStarted}, {"1", kEngine1, kStarted}});
    // Two files, given newest first: sorted by their times.
    const std::string a = write("a.prom", timed(kT0 + 3600, second));
    const std::string b = write("b.prom", timed(kT0, first));
    const FleetMatrix m = fleet::read_fleet_files({a, b}, spec("ttft"), {});
    ASSERT_FALSE(m.snapshot->since_start);
    ASSERT_EQ(m.window_end_s, std::vector<std::int64_t>{kT0 + 3600});
    EXPECT_EQ(m.window_start_s(0), kT0);
    expect_cell(m, 0, 0, scrape_quantile(0.95, kVllmTtftBounds, hour0));
    EXPECT_EQ(m.map.at(0, 0).count, 600);
    EXPECT_TRUE(m.snapshot->diagnostics.empty());
    // The same in one file of three scrapes: two windows, the second without requests.
    const std::string one = write(
        "three.prom", timed(kT0, first) + timed(kT0 + 3600, second) + timed(kT0 + 7200, second));
    const FleetMatrix three = fleet::read_fleet_file(one, spec("ttft"), std::nullopt);
    ASSERT_EQ(three.window_end_s, (std::vector<std::int64_t>{kT0 + 3600, kT0 + 7200}));
    expect_cell(three, 0, 0, scrape_quantile(0.95, kVllmTtftBounds, hour0));
    EXPECT_FALSE(three.map.at(0, 1).value);  // nothing observed: blank
    EXPECT_EQ(three.snapshot->scrapes[1].where,
              one + ":" + std::to_string(std::count(first.begin(), first.end(), '\n') + 2));
}

TEST_F(Snapshot, ACounterResetStartsANewBaselineAndIsNamed) {
    // Engine 0 restarted between the scrapes (its counts fell, its _created moved);
    // engine 1 went on: the window is engine 0's counts since its restart plus
    // engine 1's difference.
    const Counts after_restart = lognormal_counts(kVllmTtftBounds, 150, 0.3, 0.5);
    const Counts engine1_hour = lognormal_counts(kVllmTtftBounds, 90, 0.2, 0.5);
    const std::string text =
        timed(kT0, vllm_scrape({{"0", kEngine0, kStarted}, {"1", kEngine1, kStarted}})) +
        timed(kT0 + 3600, vllm_scrape({{"0", after_restart, kT0 + 1800},
                                       {"1", plus(kEngine1, engine1_hour), kStarted}}));
    const std::string file = write("reset.prom", text);
    const FleetMatrix m = fleet::read_fleet_file(file, spec("ttft"), std::nullopt);
    expect_cell(m, 0, 0, scrape_quantile(0.95, kVllmTtftBounds, plus(after_restart, engine1_hour)));
    ASSERT_EQ(m.snapshot->diagnostics.size(), 1u);
    const std::string& d = m.snapshot->diagnostics[0];
    EXPECT_NE(d.find(file + ":"), std::string::npos) << d;
    EXPECT_NE(d.find("counter reset"), std::string::npos) << d;
    EXPECT_NE(d.find("engine=\"0\""), std::string::npos) << d;
    EXPECT_NE(d.find("2025-12-01T18:00:00Z and 2025-12-01T19:00:00Z"), std::string::npos) << d;
    // Without _created (SGLang), a bucket going down is the reset.
    const Counts before = lognormal_counts(kSglangTtftBounds, 900, 0.9, 0.8);
    const Counts after = lognormal_counts(kSglangTtftBounds, 40, 0.5, 0.8);
    const std::string sg = write(
        "sg.prom", timed(kT0, sglang_scrape(before)) + timed(kT0 + 3600, sglang_scrape(after)));
    const FleetMatrix r = fleet::read_fleet_file(sg, spec("ttft"), std::nullopt);
    expect_cell(r, 0, 0, scrape_quantile(0.95, kSglangTtftBounds, after));
    ASSERT_EQ(r.snapshot->diagnostics.size(), 1u);
    EXPECT_NE(r.snapshot->diagnostics[0].find("went from"), std::string::npos);
}

void expect_error(const std::string& file, const FleetSpec& s, const std::string& part,
                  const fleet::FleetFileOptions& o = {}) {
    try {
        fleet::read_fleet_files({file}, s, o);
        ADD_FAILURE() << "no error for " << file;
    } catch (const fleet::FleetError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(file + ":", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
}

TEST_F(Snapshot, BadFilesNameTheFileAndTheLine) {
    const std::string scrape = sglang_scrape(lognormal_counts(kSglangTtftBounds, 10, 1, 1));
    std::string broken = scrape;
    broken.insert(broken.find("sglang:time_to_first_token_seconds_bucket{le=\"0.2\""),
                  "sglang:time_to_first_token_seconds_bucket{le=\"0.15\" 3.0\n");
    expect_error(write("broken.prom", broken), spec("ttft"), ": line 7: ");
    expect_error(write("twice.prom", scrape + scrape), spec("ttft"), "twice in one scrape");
    expect_error(write("late.prom", scrape + timed(kT0, scrape)), spec("ttft"),
                 "before the first '# scraped at'");
    expect_error(write("when.prom", "# scraped at yesterday\n" + scrape), spec("ttft"), "line 1: ");
    expect_error(write("same.prom", timed(kT0, scrape) + timed(kT0, scrape)), spec("ttft"),
                 "two scrapes need two times");
    // The metric asked for is not there: the message lists what is.
    expect_error(write("other.prom", scrape), spec("e2e"), "sglang:time_to_first_token_seconds");
    expect_error(write("at.prom", scrape), spec("ttft"), "2 --at times for 1 scrapes",
                 {std::nullopt, {kT0, kT0 + 1}});
    // A file with timestamps is read alone, not as one more scrape.
    const std::string om = write("stamped.om", "m_bucket{le=\"+Inf\"} 3 1764612000\n");
    try {
        fleet::read_fleet_files({write("one.prom", scrape), om}, spec("ttft"), {});
        ADD_FAILURE() << "a file with timestamps taken for a scrape";
    } catch (const fleet::FleetError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(om + ": not a /metrics scrape", 0), 0u) << e.what();
    }
}

TEST_F(Snapshot, ScrapesAreToldFromFilesWithTimestamps) {
    EXPECT_TRUE(fleet::looks_like_scrape("# HELP m x\n# TYPE m histogram\nm_bucket{le=\"1\"} 3\n"));
    EXPECT_TRUE(fleet::looks_like_scrape("# scraped at 1764612000\n"));
    EXPECT_FALSE(fleet::looks_like_scrape("# TYPE m histogram\nm_bucket{le=\"1\"} 3 1764612000\n"));
    EXPECT_FALSE(fleet::looks_like_scrape("{\"status\":\"success\"}"));
}

TEST(MetricPresets, EachEngineHasTheNamesItsCodeRegisters) {
    using fleet::Engine;
    using fleet::preset_metrics;
    EXPECT_EQ(preset_metrics("ttft", Engine::Sglang),
              std::vector<std::string>{"sglang:time_to_first_token_seconds"});
    EXPECT_EQ(preset_metrics("queue", Engine::Sglang),
              std::vector<std::string>{"sglang:queue_time_seconds"});
    EXPECT_EQ(preset_metrics("itl", Engine::Vllm),
              std::vector<std::string>{"vllm:inter_token_latency_seconds"});
    EXPECT_EQ(preset_metrics("tpot", Engine::Vllm),
              (std::vector<std::string>{"vllm:time_per_output_token_seconds",
                                        "vllm:request_time_per_output_token_seconds"}));
    EXPECT_EQ(preset_metrics("e2e", Engine::Tgi), std::vector<std::string>{"tgi_request_duration"});
    EXPECT_EQ(preset_metrics("tpot", Engine::Tgi),
              std::vector<std::string>{"tgi_request_mean_time_per_token_duration"});
    EXPECT_THROW(preset_metrics("ttft", Engine::Tgi), std::invalid_argument);
    EXPECT_TRUE(preset_metrics("p99", std::nullopt).empty());
    // Without an engine: vLLM's first (as before), the others as alternatives.
    FleetSpec s;
    fleet::set_metric(s, "queue", std::nullopt);
    EXPECT_EQ(s.metric, "vllm:request_queue_time_seconds");
    EXPECT_EQ(s.metric_alternatives, (std::vector<std::string>{"sglang:queue_time_seconds",
                                                               "tgi_request_queue_duration"}));
    fleet::set_metric(s, "my_latency_seconds_bucket", std::nullopt);
    EXPECT_EQ(s.metric, "my_latency_seconds");
    EXPECT_TRUE(s.metric_alternatives.empty());
    EXPECT_THROW(fleet::set_metric(s, "my_latency_seconds", Engine::Vllm), std::invalid_argument);
}

}  // namespace
}  // namespace tokenscope::fleet_test
