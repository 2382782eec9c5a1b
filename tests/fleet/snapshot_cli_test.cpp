// `tokenscope-cli fleet` on /metrics scrapes (docs/fleet.md, Snapshots), as a user
// runs it: one vLLM scrape labelled "since the server started" in text, JSON and the
// image; two scrapes timed with --at giving the window between them; a counter
// reset as a warning; a bad file or option as one line naming it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fleet/fleet_spec.h"
#include "snapshot_scrapes.h"
#include "support/temp_dir.h"

namespace tokenscope::fleet_test {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kT0 = 1'764'612'000;  // 2025-12-01T18:00:00Z
constexpr std::int64_t kStarted = kT0 - 10 * 3600;

const Counts kEngine0 = lognormal_counts(kVllmTtftBounds, 1200, 0.18, 0.6);
const Counts kEngine1 = lognormal_counts(kVllmTtftBounds, 800, 0.25, 0.7);
const Counts kHour = lognormal_counts(kVllmTtftBounds, 600, 0.6, 0.5);

class SnapshotCli : public ::testing::Test {
  protected:
    std::string write(const std::string& name, const std::string& text) const {
        return dir_.write(name, text);
    }
    std::string vllm_file(const std::string& name = "vllm.prom") const {
        return write(name, "# scraped at " + fleet::format_rfc3339(kT0) + "\n" +
                               vllm_scrape({{"0", kEngine0, kStarted}, {"1", kEngine1, kStarted}}));
    }
    tokenscope::test::TempDir dir_{"tokenscope_snapshot_cli"};
};

double ns(std::optional<double> s) {
    return *s * 1e9;
}

TEST_F(SnapshotCli, OneScrapeIsLabelledSinceTheServerStarted) {
    const std::string file = vllm_file();
    CliResult text = run_cli(file + " --by model_name");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("1 window since the server started (2025-12-01T08:00:00Z) up to the "
                            "scrape at 2025-12-01T18:00:00Z"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("since start"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(kVllmModel), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(# scraped at)"), std::string::npos) << text.out;

    CliResult json = run_cli(file + " --by model_name --json --quantile 0.99");
    ASSERT_EQ(json.status, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["metric"], "vllm:time_to_first_token_seconds");
    EXPECT_EQ(j["snapshot"]["since_server_start"], true);
    EXPECT_EQ(j["snapshot"]["server_start_ns"].get<std::int64_t>(), kStarted * 1'000'000'000);
    EXPECT_EQ(j["columns"][0]["label"], "since the server started");
    const double want = ns(scrape_quantile(0.99, kVllmTtftBounds, plus(kEngine0, kEngine1)));
    EXPECT_NEAR(j["rows"][0]["cells"][0]["quantile_ns"].get<double>(), want, want * 1e-12);
    EXPECT_EQ(j["rows"][0]["cells"][0]["observations"].get<double>(), 2000);

    const std::string svg = dir_.file("since.svg");
    CliResult image = run_cli(file + " --by model_name --csv --svg " + svg);
    ASSERT_EQ(image.status, 0) << image.err;
    std::ifstream in(svg);
    const std::string drawn((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(drawn.find("since the server started"), std::string::npos);
}

TEST_F(SnapshotCli, TwoScrapesTimedWithAtGiveTheHourBetweenThem) {
    const std::string before =
        write("before.prom", vllm_scrape({{"0", kEngine0, kStarted}, {"1", kEngine1, kStarted}}));
    const std::string after =
        write("after.prom",
              vllm_scrape({{"0", plus(kEngine0, kHour), kStarted}, {"1", kEngine1, kStarted}}));
    CliResult r = run_cli(before + " " + after + " --by model_name --json --at " +
                          fleet::format_rfc3339(kT0) + "," + std::to_string(kT0 + 3600));
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["snapshot"]["since_server_start"], false);
    ASSERT_EQ(j["columns"].size(), 1u);
    EXPECT_EQ(j["columns"][0]["start_ns"].get<std::int64_t>(), kT0 * 1'000'000'000);
    EXPECT_EQ(j["columns"][0]["end_ns"].get<std::int64_t>(), (kT0 + 3600) * 1'000'000'000);
    EXPECT_EQ(j["snapshot"]["scrapes"][1]["time_source"], "--at");
    const double want = ns(scrape_quantile(0.95, kVllmTtftBounds, kHour));
    EXPECT_NEAR(j["rows"][0]["cells"][0]["quantile_ns"].get<double>(), want, want * 1e-12);
    CliResult text = run_cli(before + " " + after + " --by model_name --at " + std::to_string(kT0) +
                             "," + std::to_string(kT0 + 3600));
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("1 window between 2 scrapes of /metrics"), std::string::npos)
        << text.out;
}

TEST_F(SnapshotCli, ACounterResetIsAWarning) {
    const std::string file = write("reset.prom", "# scraped at " + std::to_string(kT0) + "\n" +
                                                     vllm_scrape({{"0", kEngine0, kStarted}}) +
                                                     "# scraped at " + std::to_string(kT0 + 3600) +
                                                     "\n" + vllm_scrape({{"0", kHour, kT0 + 600}}));
    CliResult text = run_cli(file + " --by model_name");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("warning: " + file + ":"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("counter reset"), std::string::npos) << text.out;
    CliResult csv = run_cli(file + " --by model_name --csv");
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_NE(csv.err.find("warning: " + file + ":"), std::string::npos) << csv.err;
}

TEST_F(SnapshotCli, BadFilesAndOptionsAreOneLineNamingThem) {
    std::string scrape = sglang_scrape(lognormal_counts(kSglangTtftBounds, 10, 1, 1));
    scrape.insert(scrape.find("sglang:time_to_first_token_seconds_bucket{le=\"0.2\""),
                  "sglang:time_to_first_token_seconds_bucket{le=\"0.15\" 3.0\n");
    const std::string bad = write("bad.prom", scrape);
    CliResult r = run_cli(bad + " --by model_name");
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(bad + ": line 7: "), std::string::npos) << r.err;

    const std::string good = vllm_file();
    r = run_cli(good + " --by model_name --end " + std::to_string(kT0));
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("--end does not apply to /metrics scrapes"), std::string::npos) << r.err;

    r = run_cli(good + " --by model_name --engine tgi");
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("TGI exports no time-to-first-token histogram"), std::string::npos)
        << r.err;

    r = run_cli(good + " --by model_name --engine sglang");
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find("no sglang:time_to_first_token_seconds histogram"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("vllm:time_to_first_token_seconds"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tokenscope::fleet_test
