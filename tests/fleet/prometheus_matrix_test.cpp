// `tokenscope-cli fleet` against a real Prometheus holding histograms of known
// distributions: the matrix, its blanks, SLA, flag and calibration are checked against
// values computed here from the generated bucket counts (fleet_histograms.h), and the
// exported rules against promtool.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli_runner.h"
#include "fleet_histograms.h"
#include "prometheus_process.h"

namespace tokenscope::fleet_test {
namespace {

constexpr std::size_t kHours = 24;
constexpr std::size_t kDegradedFrom = 16, kDegradedTo = 19;  // llama-8b at 3x latency
constexpr std::size_t kBaseline = kHours / 2;                // the SLA's default baseline

Fleet make_fleet() {
    Fleet f;
    // Hours in the past, clear of the TSDB head, so backfilled blocks are queryable.
    const std::int64_t now = std::time(nullptr);
    f.start_s = now / kHour * kHour - 30 * kHour;
    f.rows = {"llama-8b", "mistral-7b", "qwen-1.5b"};
    const double medians[] = {0.12, 0.3, 0.05};
    f.hours.assign(3, std::vector<HourSpec>(kHours));
    for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t h = 0; h < kHours; ++h)
            f.hours[r][h] = {medians[r] * (1 + 0.15 * std::sin(static_cast<double>(h))), 0.5,
                             2000.0 + 500.0 * static_cast<double>(r)};
    for (std::size_t h = kDegradedFrom; h <= kDegradedTo; ++h)
        f.hours[0][h] = {3 * medians[0], 0.5, 2000};  // identical hours: the proposal settles
    f.hours[1][10].observations = f.hours[1][11].observations = 0;       // a 2-hour scrape gap
    for (std::size_t h = 0; h < 6; ++h) f.hours[2][h].observations = 0;  // deployed at hour 6
    return f;
}

class PrometheusMatrix : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new fs::path(fs::temp_directory_path() /
                            ("tokenscope_fleet_test_" + std::to_string(getpid())));
        fs::create_directories(*dir_);
        fleet_ = new Fleet(make_fleet());
        write_openmetrics(*fleet_, (*dir_ / "fleet.om").string());
        try {
            server_ = new PrometheusProcess(*dir_ / "prom", *dir_ / "fleet.om");
        } catch (const std::exception& e) {
            setup_error_ = new std::string(e.what());
        }
    }
    static void TearDownTestSuite() {
        delete server_;
        fs::remove_all(*dir_);
        delete dir_;
        delete fleet_;
        delete setup_error_;
    }
    void SetUp() override {
        ASSERT_NE(server_, nullptr) << (setup_error_ ? *setup_error_ : "no Prometheus");
    }

    static std::string end_option() { return " --end " + std::to_string(fleet_->end_s()); }
    static nlohmann::json live_json(const std::string& extra) {
        CliResult r = run_cli(server_->auth_options() + " --metric ttft --by model_name" +
                              end_option() + " --json --progress none " + extra);
        EXPECT_EQ(r.status, 0) << r.err;
        return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
    }
    // The expected matrix cell in ns, nullopt where no data was written.
    static std::optional<double> expected(double q, std::size_t row, std::size_t hour) {
        if (!fleet_->has_data(row, hour)) return std::nullopt;
        return *expected_quantile(q, fleet_->buckets(row, hour)) * 1e9;
    }

    static fs::path* dir_;
    static Fleet* fleet_;
    static PrometheusProcess* server_;
    static std::string* setup_error_;
};

fs::path* PrometheusMatrix::dir_ = nullptr;
Fleet* PrometheusMatrix::fleet_ = nullptr;
PrometheusProcess* PrometheusMatrix::server_ = nullptr;
std::string* PrometheusMatrix::setup_error_ = nullptr;

void expect_cells(const nlohmann::json& j, double q,
                  const std::function<std::optional<double>(std::size_t, std::size_t)>& want) {
    ASSERT_EQ(j["rows"].size(), 3u);
    for (std::size_t r = 0; r < 3; ++r) {
        const auto& cells = j["rows"][r]["cells"];
        ASSERT_EQ(cells.size(), kHours);
        for (std::size_t h = 0; h < kHours; ++h) {
            const auto w = want(r, h);
            const auto& got = cells[h]["quantile_ns"];
            if (!w) {
                EXPECT_TRUE(got.is_null()) << "row " << r << " hour " << h << " q " << q;
                continue;
            }
            ASSERT_TRUE(got.is_number()) << "row " << r << " hour " << h << " q " << q;
            EXPECT_NEAR(got.get<double>(), *w, *w * 1e-9) << "row " << r << " hour " << h;
        }
    }
}

TEST_F(PrometheusMatrix, CellsAreHistogramQuantilesOfEachHourAndBlankWithoutData) {
    for (double q : {0.5, 0.95, 0.999}) {
        nlohmann::json j = live_json("--quantile " + std::to_string(q));
        ASSERT_FALSE(j.is_null());
        EXPECT_EQ(j["rows"][0]["label"], "llama-8b");
        EXPECT_EQ(j["rows"][1]["label"], "mistral-7b");
        EXPECT_EQ(j["rows"][2]["label"], "qwen-1.5b");
        ASSERT_EQ(j["columns"].size(), kHours);
        EXPECT_EQ(j["columns"][kHours - 1]["end_ns"].get<std::int64_t>(),
                  fleet_->end_s() * 1'000'000'000);
        expect_cells(j, q, [&](std::size_t r, std::size_t h) { return expected(q, r, h); });
        for (std::size_t h = 0; h < kHours; ++h) {
            if (!fleet_->has_data(0, h)) continue;
            EXPECT_DOUBLE_EQ(j["rows"][0]["cells"][h]["observations"].get<double>(),
                             fleet_->buckets(0, h).back());
        }
    }
}

// docs/heatmap.md and docs/fleet.md, applied here to the expected cells.
TEST_F(PrometheusMatrix, PlantedDegradationRaisesTheFlagAndSettlesACalibration) {
    nlohmann::json j = live_json("");
    ASSERT_FALSE(j.is_null());
    for (std::size_t r = 0; r < 3; ++r) {
        std::optional<double> peak;
        for (std::size_t h = 0; h < kBaseline; ++h)
            if (auto e = expected(0.95, r, h)) peak = std::max(peak.value_or(*e), *e);
        const double sla = 1.2 * *peak;
        const auto& row = j["rows"][r];
        EXPECT_NEAR(row["sla_ns"].get<double>(), sla, sla * 1e-9) << r;
        std::optional<std::size_t> flag;
        for (std::size_t h = kBaseline, run = 0; h < kHours && !flag; ++h) {
            auto e = expected(0.95, r, h);
            run = (e && *e > 0.9 * sla) ? run + 1 : 0;
            if (run == 3) flag = h - 2;
        }
        if (flag) {
            EXPECT_EQ(row["recalibrate_from_window"], *flag) << r;
        } else {
            EXPECT_TRUE(row["recalibrate_from_window"].is_null()) << r;
        }
        if (r != 0) {
            EXPECT_EQ(row["calibration"]["state"], "none") << r;
        }
    }
    const auto& llama = j["rows"][0];
    EXPECT_EQ(llama["recalibrate_from_window"], kDegradedFrom);
    // Three hours above 1.2 x SLA start it at hour 18; hour 19 proposes the same peak.
    const double proposal = 1.2 * *expected(0.95, 0, kDegradedFrom);
    EXPECT_EQ(llama["calibration"]["state"], "settled");
    EXPECT_EQ(llama["calibration"]["started_at_window"], kDegradedFrom + 2);
    EXPECT_EQ(llama["calibration"]["settled_at_window"], kDegradedFrom + 3);
    EXPECT_NEAR(llama["calibration"]["threshold_ns"].get<double>(), proposal, proposal * 1e-9);
}

TEST_F(PrometheusMatrix, OpenMetricsFileAndSavedAnswerGiveTheSameMatrixOffline) {
    const std::string saved = (*dir_ / "answer.json").string();
    nlohmann::json live = live_json("--save " + saved);
    ASSERT_FALSE(live.is_null());
    for (const std::string& file : {(*dir_ / "fleet.om").string(), saved}) {
        CliResult r = run_cli(file + " --metric ttft --by model_name --json" + end_option());
        ASSERT_EQ(r.status, 0) << file << ": " << r.err;
        nlohmann::json offline = nlohmann::json::parse(r.out);
        expect_cells(offline, 0.95,
                     [&](std::size_t row, std::size_t h) { return expected(0.95, row, h); });
        EXPECT_EQ(offline["rows"][0]["calibration"], live["rows"][0]["calibration"]) << file;
    }
}

TEST_F(PrometheusMatrix, TextAndCsvShowTheSameRowsWithBlankCells) {
    CliResult csv =
        run_cli(server_->auth_options() + " --by model_name --csv --progress none" + end_option());
    ASSERT_EQ(csv.status, 0) << csv.err;
    std::istringstream lines(csv.out);
    std::vector<std::string> rows;
    for (std::string line; std::getline(lines, line);) rows.push_back(line);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(std::count(rows[0].begin(), rows[0].end(), ','), static_cast<long>(kHours));
    // qwen-1.5b: the first six windows are empty fields.
    EXPECT_EQ(rows[3].rfind("qwen-1.5b,,,,,,,", 0), 0u) << rows[3];
    CliResult text =
        run_cli(server_->auth_options() + " --by model_name --progress none" + end_option());
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("from 16"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("settled@19"), std::string::npos) << text.out;
}

TEST_F(PrometheusMatrix, HeatmapImagesAreWritten) {
    const std::string png = (*dir_ / "fleet.png").string();
    const std::string svg = (*dir_ / "fleet.svg").string();
    CliResult r =
        run_cli(server_->auth_options() + " --by model_name --progress none --csv --png " + png +
                " --svg " + svg + " --size 800x400 --quantile 0.99" + end_option());
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(png, std::ios::binary);
    char magic[8] = {};
    in.read(magic, 8);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG");
    EXPECT_GT(fs::file_size(svg), 1000u);
    // The image names the quantile asked for and the windows in UTC, as the Fleet tab does.
    std::ifstream svg_in(svg);
    const std::string text((std::istreambuf_iterator<char>(svg_in)), {});
    EXPECT_NE(text.find("P99"), std::string::npos);
    EXPECT_EQ(text.find("P95"), std::string::npos);
}

TEST_F(PrometheusMatrix, WrongPasswordIsHttp401FromPrometheus) {
    const std::string bad = (*dir_ / "bad_password").string();
    std::ofstream(bad) << "not-the-password\n";
    CliResult r = run_cli("--url " + server_->url() + " --ca-file " + server_->ca_file() +
                          " --user " + kUser + " --password-file " + bad + " --by model_name");
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(server_->url() + "/api/v1/query_range"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("HTTP 401"), std::string::npos) << r.err;
}

TEST_F(PrometheusMatrix, SelfSignedCertificateWithoutCaFileIsATlsError) {
    CliResult r = run_cli("--url " + server_->url() + " --user " + kUser + " --password-file " +
                          server_->password_file() + " --by model_name");
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(server_->url()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("TLS"), std::string::npos) << r.err;
}

TEST_F(PrometheusMatrix, BadPromqlIsRejectedWithPrometheusMessage) {
    CliResult r =
        run_cli(server_->auth_options() + " --by model_name --match 'job=~\"(\"'" + end_option());
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(server_->url() + "/api/v1/query_range"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bad_data"), std::string::npos) << r.err;
}

TEST_F(PrometheusMatrix, UnknownMetricIsAnEmptyResult) {
    CliResult r = run_cli(server_->auth_options() +
                          " --metric no_such_latency_seconds --by model_name" + end_option());
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(server_->url()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("empty result"), std::string::npos) << r.err;
}

// promtool's unit-test file: every generated series at 5-minute steps ('_' where
// nothing was written), TokenscopeFleetSLA firing for the degraded row only at the
// end of the degradation, and for none before it.
std::string rules_test_file(const Fleet& f, const std::string& rules) {
    std::ostringstream out;
    out << "rule_files:\n  - " << rules << "\nevaluation_interval: 1m\ntests:\n"
        << "  - interval: 5m\n    input_series:\n";
    for (std::size_t r = 0; r < f.rows.size(); ++r)
        for (std::size_t b = 0; b <= kBounds.size(); ++b) {
            out << "      - series: '" << f.metric << "_bucket{" << f.label << "=\"" << f.rows[r]
                << "\",le=\"" << le_text(b) << "\"}'\n        values: '";
            for (const auto& v : series_values(f, r, b)) {
                if (v)
                    out << static_cast<long long>(*v) << ' ';
                else
                    out << "_ ";
            }
            out << "'\n";
        }
    out << "    alert_rule_test:\n"
        << "      - eval_time: " << kDegradedFrom - 1
        << "h\n        alertname: TokenscopeFleetSLA\n"
        << "        exp_alerts: []\n"
        << "      - eval_time: " << kDegradedTo + 1 << "h\n        alertname: TokenscopeFleetSLA\n"
        << "        exp_alerts:\n          - exp_labels:\n              severity: warning\n"
        << "              " << f.label << ": " << f.rows[0] << "\n";
    return out.str();
}

// Thresholds calibrated on the healthy first 16 hours, then promtool replays all 24.
TEST_F(PrometheusMatrix, ExportedRulesPassPromtoolAndFireOnTheDegradation) {
    const std::string rules = (*dir_ / "rules.yml").string();
    const std::int64_t healthy_end =
        fleet_->start_s + static_cast<std::int64_t>(kDegradedFrom) * kHour;
    CliResult r =
        run_cli(server_->auth_options() + " --by model_name --progress none --range 16h --end " +
                std::to_string(healthy_end) + " --rules " + rules + " --csv");
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string promtool = find_tool("promtool");
    const std::string check_log = (*dir_ / "promtool_check.log").string();
    EXPECT_EQ(
        std::system((promtool + " check rules " + rules + " >" + check_log + " 2>&1").c_str()), 0);
    std::ifstream check_in(check_log);
    std::stringstream check;
    check << check_in.rdbuf();
    EXPECT_NE(check.str().find("SUCCESS: 3 rules found"), std::string::npos) << check.str();
    EXPECT_EQ(check.str().find("FAILED"), std::string::npos) << check.str();
    const std::string test_file = (*dir_ / "rules_test.yml").string();
    std::ofstream(test_file) << rules_test_file(*fleet_, rules);
    const std::string log = (*dir_ / "promtool_test.log").string();
    const int status =
        std::system((promtool + " test rules " + test_file + " >" + log + " 2>&1").c_str());
    std::ifstream in(log);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(status, 0) << ss.str();
    // One rule per row, with `for:` three 1 h windows.
    std::ifstream yml(rules);
    std::stringstream text;
    text << yml.rdbuf();
    std::size_t alerts = 0;
    for (std::size_t at = 0; (at = text.str().find("- alert: ", at)) != std::string::npos; ++at)
        ++alerts;
    EXPECT_EQ(alerts, 3u);
    EXPECT_NE(text.str().find("for: 3h"), std::string::npos);
}

}  // namespace
}  // namespace tokenscope::fleet_test
