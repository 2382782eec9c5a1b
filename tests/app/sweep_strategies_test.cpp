// sweep-report's strategy comparison, the serving model's summary "requests" and
// the report's integrity check limited to the tables it reads, through the built
// tokenscope-cli. Expected figures are computed here from the stored requests
// (numpy's linear percentile, population std), never copied from the CLI.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_process.h"
#include "store/sweep_store.h"
#include "support/old_store.h"
#include "support/temp_dir.h"

namespace tokenscope::test {
namespace {

namespace fs = std::filesystem;

// One directory for the whole test program, removed when it ends.
const fs::path& temp_dir() {
    static const TempDir dir("tokenscope-strategy-test");
    return dir.path();
}

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(pos);
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

double population_std(const std::vector<double>& v) {
    double mean = 0;
    for (double x : v) mean += x / static_cast<double>(v.size());
    double ss = 0;
    for (double x : v) ss += (x - mean) * (x - mean);
    return std::sqrt(ss / static_cast<double>(v.size()));
}

std::int64_t count_rows(const std::string& file, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    const std::int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

TEST(SweepStrategies, ReportedFiguresArePooledTtftAndTpotOfEachStrategy) {
    const std::string file = (temp_dir() / "strat.tokenscope").string();
    fs::remove(file);
    auto r = run_cli("sweep --out " + file +
                     " --preset tiny --batch 2 --prompt 16 --tokens 5 "
                     "--strategy greedy,beam:2,speculative:1:2 --warmup 0 --repeats 2 "
                     "--progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    const fs::path csv = temp_dir() / "strat.csv", png = temp_dir() / "strat.png";
    r = run_cli("sweep-report " + file + " --json --strategies " + csv.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["strategies"].size(), 3u);
    std::ifstream csv_in(csv);
    std::string line;
    std::getline(csv_in, line);
    EXPECT_EQ(line.substr(0, 36), "point,strategy,context,requests,ttft");

    store::SweepStore store(file, /*read_only=*/true);
    const auto points = store.points(store.sweeps().back().id);
    const char* names[] = {"greedy", "beam:2", "speculative:1:2"};
    for (int p = 0; p < 3; ++p) {
        std::vector<double> ttft, tpot;
        for (const auto& pt : points) {
            if (pt.point != p) continue;
            for (const auto& q : store.requests(pt.run_id)) {
                ttft.push_back(static_cast<double>(q.first_token_ns - q.arrival_ns));
                tpot.push_back(static_cast<double>(q.done_ns - q.first_token_ns) /
                               static_cast<double>(q.output_len - 1));
            }
        }
        ASSERT_EQ(ttft.size(), 4u) << "2 repeats x batch 2";
        const auto& s = j["strategies"][p];
        EXPECT_EQ(s["strategy"], names[p]);
        EXPECT_EQ(s["requests"].get<double>(), 4.0);
        EXPECT_NEAR(s["ttft_p50_ns"].get<double>(), percentile(ttft, 50), 1.0);
        EXPECT_NEAR(s["ttft_p90_ns"].get<double>(), percentile(ttft, 90), 1.0);
        EXPECT_NEAR(s["ttft_std_ns"].get<double>(), population_std(ttft), 1.0);
        EXPECT_NEAR(s["tpot_p50_ns"].get<double>(), percentile(tpot, 50), 1.0);
        EXPECT_NEAR(s["tpot_p90_ns"].get<double>(), percentile(tpot, 90), 1.0);
        EXPECT_NEAR(s["tpot_std_ns"].get<double>(), population_std(tpot), 1.0);
        // The CSV row: ms with 4 decimals.
        ASSERT_TRUE(std::getline(csv_in, line));
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        ASSERT_EQ(cells.size(), 10u) << line;
        EXPECT_EQ(cells[1], names[p]);
        EXPECT_NEAR(std::stod(cells[4]), percentile(ttft, 50) * 1e-6, 1e-4);
        EXPECT_NEAR(std::stod(cells[9]), population_std(tpot) * 1e-6, 1e-4);
    }
    // The text report and the image (PNG signature and size).
    r = run_cli("sweep-report " + file + " --strategies " + png.string() + " --size 640x400");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("decoding strategies"), std::string::npos);
    EXPECT_NE(r.out.find("speculative:1:2"), std::string::npos);
    std::ifstream in(png, std::ios::binary);
    std::string head(24, '\0');
    in.read(head.data(), 24);
    EXPECT_EQ(head.substr(1, 3), "PNG");
    auto be32 = [&](int at) {
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(head[at + i]);
        return v;
    };
    EXPECT_EQ(be32(16), 640u);
    EXPECT_EQ(be32(20), 400u);
    // A sweep without a strategy axis has no comparison to draw: a one-line error.
    const std::string plain = (temp_dir() / "plain.tokenscope").string();
    ASSERT_EQ(run_cli("sweep --out " + plain +
                      " --preset tiny --batch 1,2 --prompt 16 --tokens 3 --warmup 0 --repeats 1 "
                      "--progress none")
                  .status,
              0);
    r = run_cli("sweep-report " + plain + " --strategies " + png.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("no strategy axis"), std::string::npos) << r.err;
}

TEST(SweepStrategies, SummaryRequestsKeepsTheRequestsAndNoTokenSteps) {
    const std::string on = (temp_dir() / "on.tokenscope").string();
    const std::string req = (temp_dir() / "req.tokenscope").string();
    for (const auto& [file, mode] : {std::pair{on, "on"}, std::pair{req, "requests"}}) {
        fs::remove(file);
        auto r = run_cli("sweep --out " + file +
                         " --preset llama-1b --qps 8 --duration 3s --prompt 64 --tokens 8 "
                         "--warmup 0 --repeats 1 --progress none --summary " +
                         mode);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    const std::int64_t requests = count_rows(on, "SELECT count(*) FROM request");
    ASSERT_GT(requests, 5);
    // Every request emits 8 tokens: 8 token steps each with summary on, none without.
    EXPECT_EQ(count_rows(on, "SELECT count(*) FROM step"), requests * 8);
    EXPECT_EQ(count_rows(req, "SELECT count(*) FROM step"), 0);
    EXPECT_EQ(count_rows(req, "SELECT count(*) FROM request"), requests);
    EXPECT_EQ(count_rows(req, "SELECT sum(done_ns - arrival_ns) FROM request"),
              count_rows(on, "SELECT sum(done_ns - arrival_ns) FROM request"));
    auto r = run_cli("sweep --out " + req + " --qps 8 --summary sometimes --progress none");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("expected on, off or requests"), std::string::npos) << r.err;
}

TEST(SweepStrategies, TheReportChecksOnlyTheTablesItReads) {
    const std::string file = (temp_dir() / "check.tokenscope").string();
    fs::remove(file);
    auto r = run_cli("sweep --out " + file +
                     " --preset llama-1b --qps 20,40 --duration 5s --prompt 64 --tokens 32 "
                     "--warmup 0 --repeats 1 --progress none --summary on");
    ASSERT_EQ(r.status, 0) << r.err;
    // A broken page among the token steps: the report, which reads none, still runs;
    // opening the whole file (info) refuses it.
    corrupt_root_page(file, "step_by_request");
    r = run_cli("sweep-report " + file + " --json");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["points"].size(), 2u);
    r = run_cli("info " + file);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.err.find("corrupt"), std::string::npos) << r.err;
    // A broken page among the requests, which the report reads: a one-line error
    // naming the file.
    corrupt_root_page(file, "request");
    r = run_cli("sweep-report " + file);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("corrupt"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace tokenscope::test
