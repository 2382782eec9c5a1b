// /metrics snapshots against the real thing: the test's vLLM and SGLang scrapes are
// backfilled into a real Prometheus at their scrape times, and its own
// histogram_quantile, over the buckets as scraped (one scrape) or over their
// differences (two scrapes an hour apart), must give what `tokenscope-cli fleet`
// reads from the scrape files. The same Prometheus answers the `ttft` preset with
// SGLang's histogram where vLLM's has no data.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "fleet/fleet_spec.h"
#include "fleet/http_client.h"
#include "prometheus_process.h"
#include "snapshot_scrapes.h"

namespace tokenscope::fleet_test {
namespace {

const Counts kEngine0 = lognormal_counts(kVllmTtftBounds, 1200, 0.18, 0.6);
const Counts kEngine1 = lognormal_counts(kVllmTtftBounds, 800, 0.25, 0.7);
const Counts kSglangBefore = lognormal_counts(kSglangTtftBounds, 3000, 0.7, 0.9);
const Counts kSglangHour = lognormal_counts(kSglangTtftBounds, 450, 2.5, 0.6);
const Counts kSglangAfter = plus(kSglangBefore, kSglangHour);

// One bucket series' counts at their times, as OpenMetrics for promtool's backfill.
void write_bucket(std::ofstream& out, const std::string& metric, const std::string& labels,
                  const std::string& le,
                  const std::vector<std::pair<double, std::int64_t>>& points) {
    char line[512];
    for (const auto& [count, t] : points) {
        std::snprintf(line, sizeof line, "%s_bucket{%s,le=\"%s\"} %.17g %lld\n", metric.c_str(),
                      labels.c_str(), le.c_str(), count, static_cast<long long>(t));
        out << line;
    }
}

class SnapshotPrometheus : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new fs::path(fs::temp_directory_path() /
                            ("tokenscope_snapshot_prom_" + std::to_string(getpid())));
        fs::create_directories(*dir_);
        // Hours in the past, clear of the TSDB head, so backfilled blocks are queryable.
        t1_ = std::time(nullptr) / 3600 * 3600 - 8 * 3600;
        write_files();
        try {
            server_ = new PrometheusProcess(*dir_ / "prom", *dir_ / "scrapes.om");
        } catch (const std::exception& e) {
            setup_error_ = new std::string(e.what());
        }
    }
    static void TearDownTestSuite() {
        delete server_;
        fs::remove_all(*dir_);
        delete dir_;
        delete setup_error_;
    }
    void SetUp() override {
        ASSERT_NE(server_, nullptr) << (setup_error_ ? *setup_error_ : "no Prometheus");
    }

    // vLLM scraped once at t1 - 3 h; SGLang at t1 - 1 h and t1.
    static std::int64_t vllm_at() { return t1_ - 3 * 3600; }
    static std::int64_t t0() { return t1_ - 3600; }
    static void write_files() {
        const std::string vllm = "vllm:time_to_first_token_seconds";
        const std::string sglang = "sglang:time_to_first_token_seconds";
        std::ofstream om(*dir_ / "scrapes.om");
        om << "# TYPE " << vllm << " histogram\n";
        for (const auto& [engine, counts] : {std::pair{"0", kEngine0}, {"1", kEngine1}}) {
            const std::string labels =
                "model_name=\"" + std::string(kVllmModel) + "\",engine=\"" + engine + "\"";
            for (std::size_t i = 0; i < counts.size(); ++i)
                write_bucket(om, vllm, labels, scrape_le(kVllmTtftBounds, i),
                             {{counts[i], vllm_at()}});
        }
        om << "# TYPE " << sglang << " histogram\n";
        const std::string labels = "model_name=\"" + std::string(kSglangModel) + "\"";
        for (std::size_t i = 0; i < kSglangBefore.size(); ++i)
            write_bucket(om, sglang, labels, scrape_le(kSglangTtftBounds, i),
                         {{kSglangBefore[i], t0()}, {kSglangAfter[i], t1_}});
        om << "# EOF\n";
        std::ofstream(*dir_ / "vllm.prom")
            << "# scraped at " << vllm_at() << "\n"
            << vllm_scrape({{"0", kEngine0, static_cast<double>(vllm_at() - 18000)},
                            {"1", kEngine1, static_cast<double>(vllm_at() - 18000)}});
        std::ofstream(*dir_ / "sglang.prom")
            << "# scraped at " << t0() << "\n"
            << sglang_scrape(kSglangBefore) << "# scraped at " << t1_ << "\n"
            << sglang_scrape(kSglangAfter);
        std::ofstream(*dir_ / "sglang_last.prom") << "# scraped at " << t1_ << "\n"
                                                  << sglang_scrape(kSglangAfter);
    }

    // Prometheus' own answer to an instant query: model_name -> value.
    static std::map<std::string, double> instant(const std::string& query, std::int64_t t) {
        fleet::HttpRequest r;
        r.url = server_->url() + "/api/v1/query";
        r.form_body = "query=" + fleet::url_encode(query) + "&time=" + std::to_string(t);
        r.ca_file = server_->ca_file();
        r.user = kUser;
        r.password = kPassword;
        const auto answer = nlohmann::json::parse(fleet::http_fetch(r).body);
        std::map<std::string, double> out;
        for (const auto& s : answer["data"]["result"])
            out[s["metric"].value("model_name", "")] = std::stod(s["value"][1].get<std::string>());
        return out;
    }
    static nlohmann::json cli_json(const std::string& args) {
        CliResult r = run_cli(args + " --by model_name --json --progress none");
        EXPECT_EQ(r.status, 0) << r.err;
        return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
    }

    static fs::path* dir_;
    static std::int64_t t1_;
    static PrometheusProcess* server_;
    static std::string* setup_error_;
};

fs::path* SnapshotPrometheus::dir_ = nullptr;
std::int64_t SnapshotPrometheus::t1_ = 0;
PrometheusProcess* SnapshotPrometheus::server_ = nullptr;
std::string* SnapshotPrometheus::setup_error_ = nullptr;

void expect_same(const nlohmann::json& j, const std::map<std::string, double>& prometheus,
                 const std::string& model, double q) {
    ASSERT_EQ(prometheus.count(model), 1u) << "Prometheus has no value for " << model;
    const double want_ns = prometheus.at(model) * 1e9;
    ASSERT_EQ(j["rows"].size(), 1u);
    EXPECT_EQ(j["rows"][0]["label"], model);
    EXPECT_NEAR(j["rows"][0]["cells"][0]["quantile_ns"].get<double>(), want_ns, want_ns * 1e-9)
        << "q " << q;
}

TEST_F(SnapshotPrometheus, OneScrapeGivesPrometheusHistogramQuantile) {
    for (double q : {0.5, 0.9, 0.95, 0.99}) {
        char qs[16];
        std::snprintf(qs, sizeof qs, "%g", q);
        const auto vllm = instant("histogram_quantile(" + std::string(qs) +
                                      ", sum by (le, model_name) "
                                      "(vllm:time_to_first_token_seconds_bucket))",
                                  vllm_at());
        expect_same(cli_json((*dir_ / "vllm.prom").string() + " --quantile " + qs), vllm,
                    kVllmModel, q);
        const auto sglang = instant("histogram_quantile(" + std::string(qs) +
                                        ", sum by (le, model_name) "
                                        "(sglang:time_to_first_token_seconds_bucket))",
                                    t1_);
        expect_same(cli_json((*dir_ / "sglang_last.prom").string() + " --quantile " + qs), sglang,
                    kSglangModel, q);
    }
}

TEST_F(SnapshotPrometheus, TwoScrapesGivePrometheusQuantileOfTheirDifference) {
    const std::string m = "sglang:time_to_first_token_seconds_bucket";
    for (double q : {0.5, 0.95, 0.99}) {
        char qs[16];
        std::snprintf(qs, sizeof qs, "%g", q);
        const auto prom =
            instant("histogram_quantile(" + std::string(qs) + ", sum by (le, model_name) (" + m +
                        " - " + m + " offset 1h))",
                    t1_);
        const auto j = cli_json((*dir_ / "sglang.prom").string() + " --quantile " + qs);
        expect_same(j, prom, kSglangModel, q);
        EXPECT_EQ(j["snapshot"]["since_server_start"], false);
    }
    // The preset ttft asks vLLM's name first: no data in that hour, so SGLang's answers,
    // with increase() over the hour, which here is the same difference.
    const auto live = cli_json(server_->auth_options() + " --metric ttft --range 1h --window 1h" +
                               " --end " + std::to_string(t1_));
    ASSERT_FALSE(live.is_null());
    EXPECT_EQ(live["metric"], "sglang:time_to_first_token_seconds");
    const auto file = cli_json((*dir_ / "sglang.prom").string());
    const double want = file["rows"][0]["cells"][0]["quantile_ns"].get<double>();
    EXPECT_NEAR(live["rows"][0]["cells"][0]["quantile_ns"].get<double>(), want, want * 1e-9);
}

}  // namespace
}  // namespace tokenscope::fleet_test
