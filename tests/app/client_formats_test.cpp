// SGLang bench_serving results and AIPerf's summary beside its records, through the real
// tokenscope-cli. The SGLang lines imitate sgl-project/sglang python/sglang/bench_serving.py
// (benchmark(): the `result` dict appended to --output-file as one JSON line per run,
// `result_details` added under --output-details; calculate_metrics: numpy mean, median,
// std, percentile); the AIPerf files imitate ai-dynamo/aiperf
// aiperf/common/models/record_models.py (MetricRecordInfo lines of profile_export.jsonl)
// and aiperf/common/models/export_models.py (JsonExportData, JsonMetricResult of
// profile_export_aiperf.json). Every figure the files report is computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "client_files_test.h"

namespace {

using nlohmann::json;

// numpy.percentile's default, numpy.mean, numpy.std (ddof 0).
double np_percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    auto lo = static_cast<std::size_t>(std::floor(rank));
    std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}
double np_mean(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}
double np_std(const std::vector<double>& v) {
    double m = np_mean(v), s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size()));
}

// One bench_serving run: TTFTs and ITLs (s) per request, the last one failed.
json sglang_result(double rate, const std::vector<double>& ttfts,
                   const std::vector<std::vector<double>>& itls, bool details) {
    std::vector<double> ttft_ms, itl_ms, tpot_ms, e2e_ms;
    json output_lens = json::array(), errors = json::array(), input_lens = json::array();
    for (std::size_t i = 0; i < ttfts.size(); ++i) {
        double latency = ttfts[i];
        for (double v : itls[i]) latency += v, itl_ms.push_back(v * 1000);
        const auto n = static_cast<double>(itls[i].size() + 1);
        ttft_ms.push_back(ttfts[i] * 1000);
        e2e_ms.push_back(latency * 1000);
        if (n > 1) tpot_ms.push_back((latency - ttfts[i]) / (n - 1) * 1000);
        output_lens.push_back(itls[i].size() + 1);
        input_lens.push_back(256);
        errors.push_back("");
    }
    json r = {{"backend", "sglang"},
              {"dataset_name", "random"},
              {"request_rate", rate},
              {"max_concurrency", nullptr},
              {"random_input_len", 256},
              {"random_output_len", 8},
              {"duration", 10.0},
              {"completed", ttfts.size()},
              {"total_output_tokens_retokenized", 20}};
    for (const auto& [name, v] : {std::pair{"ttft", &ttft_ms},
                                  {"tpot", &tpot_ms},
                                  {"itl", &itl_ms},
                                  {"e2e_latency", &e2e_ms}}) {
        r["mean_" + std::string(name) + "_ms"] = np_mean(*v);
        r["median_" + std::string(name) + "_ms"] = np_percentile(*v, 50);
        r["std_" + std::string(name) + "_ms"] = np_std(*v);
        r["p99_" + std::string(name) + "_ms"] = np_percentile(*v, 99);
    }
    r["p95_itl_ms"] = np_percentile(itl_ms, 95);
    if (details) {
        r["input_lens"] = input_lens;
        r["output_lens"] = output_lens;
        r["ttfts"] = ttfts;
        r["itls"] = itls;
        r["generated_texts"] = json::array();
        for (std::size_t i = 0; i < ttfts.size(); ++i) r["generated_texts"].push_back("x");
        r["errors"] = errors;
    }
    return r;
}

class ClientFormats : public tokenscope::test::ClientFilesTest {
  protected:
    static void SetUpTestSuite() { make_dir("tokenscope_formats_test_"); }
};

const std::vector<double> kTtfts = {0.0625, 0.125, 0.09375};
const std::vector<std::vector<double>> kItls = {
    {0.015625, 0.03125}, {0.0234375}, {0.0078125, 0.0078125, 0.015625}};

TEST_F(ClientFormats, SglangOutputDetailsLinesAreRunsWithTheirFigures) {
    std::string text = sglang_result(2, kTtfts, kItls, true).dump() + "\n" +
                       sglang_result(8, {0.25, 0.5}, {{0.03125}, {0.0625, 0.0625}}, true).dump() +
                       "\n";
    std::string path = write("sglang_0101_3_256_8.jsonl", text);
    Result r = cli("stats " + path + " --json --progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    json j = json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), 2u);
    EXPECT_EQ(j["runs"][0]["name"], "sglang_0101_3_256_8 request_rate=2.0");
    const json& first = j["runs"][0];
    EXPECT_EQ(first["metrics"]["ttft"]["count"], 3);
    EXPECT_NEAR(first["metrics"]["ttft"]["mean"].get<double>(), np_mean(kTtfts) * 1e9, 1.0);
    ASSERT_TRUE(first.contains("tool_figures"));
    std::size_t checked = 0;
    for (const auto& f : first["tool_figures"]) {
        EXPECT_EQ(f["tool"], "SGLang bench_serving");
        EXPECT_EQ(f["verdict"], "agrees") << f;
        ++checked;
    }
    EXPECT_EQ(checked, 4u * 4 + 1);  // {mean, median, std, p99} x 4 metrics, p95 ITL
    for (const auto& f : j["runs"][1]["tool_figures"]) EXPECT_FALSE(f["flagged"].get<bool>()) << f;
}

TEST_F(ClientFormats, SglangSummaryLinesOpenAsSummaries) {
    std::string text = sglang_result(4, kTtfts, kItls, false).dump() + "\n";
    json stats = run_json("stats", write("sglang_summary.jsonl", text));
    EXPECT_EQ(stats["requests"], 0);
    EXPECT_NEAR(stats["summary_metrics"]["ttft"]["mean"].get<double>(), np_mean(kTtfts) * 1e9, 1.0);
    EXPECT_NEAR(stats["summary_metrics"]["ttft"]["p50"].get<double>(),
                np_percentile(kTtfts, 50) * 1e9, 1.0);
}

TEST_F(ClientFormats, BrokenJsonlLineIsNamed) {
    std::string text = sglang_result(2, kTtfts, kItls, true).dump() + "\n{\"backend\": \n";
    std::string path = write("sglang_cut.jsonl", text);
    Result r = cli("stats " + path + " --progress none");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
    EXPECT_TRUE(tokenscope::test::one_line(r.err)) << r.err;
}

constexpr std::int64_t kEpoch = 1'759'813'207'532'900'363;

std::string aiperf_record(int i, const char* phase, double ttft_ms,
                          const std::vector<double>& icl) {
    double latency = ttft_ms;
    for (double v : icl) latency += v;
    json meta = {{"session_num", i},
                 {"x_request_id", "req-" + std::to_string(i)},
                 {"request_start_ns", kEpoch + i * 100'000'000LL},
                 {"request_end_ns", kEpoch + i * 100'000'000LL + std::llround(latency * 1e6)},
                 {"benchmark_phase", phase},
                 {"was_cancelled", false}};
    json metrics = {{"time_to_first_token", {{"value", ttft_ms}, {"unit", "ms"}}},
                    {"inter_chunk_latency", {{"value", icl}, {"unit", "ms"}}},
                    {"request_latency", {{"value", latency}, {"unit", "ms"}}},
                    {"output_sequence_length", {{"value", icl.size() + 1}, {"unit", "tokens"}}}};
    return json{{"metadata", meta}, {"metrics", metrics}, {"error", nullptr}}.dump() + "\n";
}

json aiperf_stats(const std::vector<double>& v, const char* unit) {
    json j = {{"unit", unit}, {"avg", np_mean(v)}, {"std", np_std(v)}};
    for (auto [key, p] : {std::pair{"p50", 50.0}, {"p90", 90.0}, {"p95", 95.0}, {"p99", 99.0}})
        j[key] = np_percentile(v, p);
    return j;
}

TEST_F(ClientFormats, AiperfSummaryBesideRecordsOfTheProfilingPhase) {
    const std::vector<double> ttft = {40.0, 52.5};
    const std::vector<std::vector<double>> icl = {{5.0, 7.5}, {6.25}};
    std::string records = aiperf_record(0, "warmup", 400.0, {90.0});  // left out, as AIPerf does
    std::vector<double> icl_all, latency, itl;
    for (int i = 0; i < 2; ++i) {
        records += aiperf_record(i + 1, "profiling", ttft[i], icl[i]);
        double sum = 0;
        for (double v : icl[i]) icl_all.push_back(v), sum += v;
        latency.push_back(ttft[i] + sum);
        itl.push_back(sum / static_cast<double>(icl[i].size()));  // (latency - ttft) / (osl - 1)
    }
    write("profile_export.jsonl", records);
    json summary = {{"time_to_first_token", aiperf_stats(ttft, "ms")},
                    {"inter_token_latency", aiperf_stats(itl, "ms")},
                    {"inter_chunk_latency", aiperf_stats(icl_all, "ms")},
                    {"request_latency", aiperf_stats(latency, "ms")},
                    {"input_config", {{"loadgen", {{"concurrency", 4}}}}}};
    write("profile_export_aiperf.json", summary.dump());
    json stats = run_json("stats", (dir_ / "profile_export.jsonl").string());
    EXPECT_EQ(stats["metrics"]["ttft"]["count"], 2);
    ASSERT_TRUE(stats.contains("tool_figures"));
    EXPECT_EQ(stats["tool_figures"].size(), 4u * 5);
    for (const auto& f : stats["tool_figures"]) {
        EXPECT_EQ(f["file"], "profile_export_aiperf.json");
        EXPECT_EQ(f["verdict"], "agrees") << f;
    }
    const json& tpot = stats["tool_figures"][5];
    EXPECT_EQ(tpot["field"], "inter_token_latency.avg");
    EXPECT_EQ(tpot["metric"], "tpot");
    EXPECT_NEAR(tpot["tool_ns"].get<double>(), np_mean(itl) * 1e6, 1.0);
}

}  // namespace
