// Client-side benchmark results opened through the real tokenscope-cli: small
// files written here from the fields the tools' public code writes (see the
// comments in profiler/import/client/*.h), TTFT / ITL / E2E computed here from
// the same numbers, never copied from the CLI's output.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "client_files_test.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Result = tokenscope::test::CliResult;

// numpy.percentile's default (linear between closest ranks), docs/metrics.md, Percentiles and
// distributions.
double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    auto lo = static_cast<std::size_t>(std::floor(rank));
    std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

class ClientImport : public tokenscope::test::ClientFilesTest {
  protected:
    static void SetUpTestSuite() { make_dir("tokenscope_client_test_"); }
    // A bad file: exit status 1 and one line on stderr naming the file.
    static std::string refused(const std::string& path) {
        Result r = cli("stats " + path + " --json --progress none");
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.err.find(fs::path(path).filename().string()), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        return r.err;
    }
    static void expect_distribution(const json& d, std::vector<double> ns) {
        ASSERT_EQ(d["count"].get<std::size_t>(), ns.size());
        double mean = 0;
        for (double v : ns) mean += v / static_cast<double>(ns.size());
        EXPECT_NEAR(d["mean"].get<double>(), mean, 1.0);
        EXPECT_NEAR(d["min"].get<double>(), *std::min_element(ns.begin(), ns.end()), 1.0);
        EXPECT_NEAR(d["max"].get<double>(), *std::max_element(ns.begin(), ns.end()), 1.0);
        for (auto [key, p] : {std::pair{"p50", 50.0}, {"p90", 90.0}, {"p99", 99.0}})
            EXPECT_NEAR(d[key].get<double>(), percentile(ns, p), 1.0) << key;
    }
};

constexpr std::int64_t kEpoch = 1'759'813'207'532'900'363;  // an AIPerf request_start_ns

// One AIPerf MetricRecordInfo line (record_models.py, working-with-profile-exports.md).
std::string aiperf_line(int i, std::int64_t start, double ttft_ms, const std::vector<double>& icl,
                        bool failed = false) {
    json meta = {{"session_num", i},
                 {"x_request_id", "req-" + std::to_string(i)},
                 {"conversation_id", "c"},
                 {"turn_index", 0},
                 {"request_start_ns", start},
                 {"request_ack_ns", nullptr},
                 {"request_end_ns", start + 1'000'000'000},
                 {"worker_id", "worker_1"},
                 {"record_processor_id", "record_processor_1"},
                 {"benchmark_phase", "profiling"},
                 {"was_cancelled", false},
                 {"cancellation_time_ns", nullptr}};
    json rec = {{"metadata", meta}};
    if (failed) {
        rec["metrics"] = {{"error_isl", {{"value", 550}, {"unit", "tokens"}}}};
        rec["error"] = {{"code", 500}, {"type", "ServerError"}, {"message", "overloaded"}};
    } else {
        rec["metrics"] = {
            {"input_sequence_length", {{"value", 550}, {"unit", "tokens"}}},
            {"time_to_first_token", {{"value", ttft_ms}, {"unit", "ms"}}},
            {"inter_chunk_latency", {{"value", icl}, {"unit", "ms"}}},
            {"output_sequence_length", {{"value", icl.size() + 1}, {"unit", "tokens"}}}};
        rec["error"] = nullptr;
    }
    return rec.dump() + "\n";
}

TEST_F(ClientImport, AiperfRecordsGiveTtftItlAndFailures) {
    const std::vector<double> ttft_ms = {41.25, 38.5, 60.0};
    const std::vector<std::vector<double>> icl_ms = {{5.5, 4.75, 6.0}, {7.0, 3.25}, {9.0}};
    std::string text;
    std::vector<double> ttft_ns, itl_ns, e2e_ns;
    for (int i = 0; i < 3; ++i) {
        text += aiperf_line(i, kEpoch + i * 250'000'000LL, ttft_ms[i], icl_ms[i]);
        ttft_ns.push_back(ttft_ms[i] * 1e6);
        double e2e = ttft_ms[i];
        for (double v : icl_ms[i]) {
            itl_ns.push_back(v * 1e6);
            e2e += v;
        }
        e2e_ns.push_back(e2e * 1e6);
    }
    text += aiperf_line(3, kEpoch + 900'000'000LL, 0, {}, true);
    // Not named .jsonl: detection is by content.
    std::string path = write("aiperf_records.txt", text);
    json stats = run_json("stats", path);
    expect_distribution(stats["metrics"]["ttft"], ttft_ns);
    expect_distribution(stats["metrics"]["itl"], itl_ns);
    expect_distribution(stats["metrics"]["e2e"], e2e_ns);
    EXPECT_EQ(stats["requests"], 3);
    EXPECT_EQ(stats["failed_requests"], 1);
    json info = run_json("info", path);
    EXPECT_EQ(info["source"], "bench");
    EXPECT_EQ(info["requests"], 4);
    EXPECT_EQ(info["steps"], 3 + itl_ns.size());  // one step per chunk
    const json* failed = diagnostic(info, "failed_requests");
    ASSERT_NE(failed, nullptr);
    EXPECT_NE(failed->at("text").get<std::string>().find("overloaded"), std::string::npos);
}

TEST_F(ClientImport, AiperfBadRecordsAreCountedNotFatal) {
    std::string text = aiperf_line(0, kEpoch, 30.0, {5.0, 5.0});
    text += aiperf_line(1, kEpoch + 1'000'000, 30.0, {5.0, -2.0});  // negative ICL
    json no_start = json::parse(aiperf_line(2, kEpoch, 30.0, {5.0}));
    no_start["metadata"].erase("request_start_ns");
    text += no_start.dump() + "\n";
    text += "not json at all\n";
    std::string last = aiperf_line(3, kEpoch, 30.0, {5.0});
    text += last.substr(0, last.size() / 2);  // a killed run's truncated last line
    std::string path = write("aiperf_bad.jsonl", text);
    json info = run_json("info", path);
    EXPECT_EQ(info["requests"], 1);
    const json* negative = diagnostic(info, "client_negative_latency");
    const json* missing = diagnostic(info, "client_missing_times");
    const json* malformed = diagnostic(info, "client_malformed_lines");
    ASSERT_NE(negative, nullptr);
    ASSERT_NE(missing, nullptr);
    ASSERT_NE(malformed, nullptr);
    EXPECT_EQ(negative->at("value"), 1.0);
    EXPECT_EQ(missing->at("value"), 1.0);
    EXPECT_EQ(malformed->at("value"), 2.0);
    EXPECT_NE(malformed->at("text").get<std::string>().find("line 4"), std::string::npos);
    json stats = run_json("stats", path);
    expect_distribution(stats["metrics"]["ttft"], {30e6});
}

TEST_F(ClientImport, AiperfWithoutAnyUsableRecordIsRefused) {
    std::string line = aiperf_line(0, kEpoch, 30.0, {5.0});
    std::string err = refused(write("aiperf_truncated.jsonl", line.substr(0, line.size() - 20)));
    EXPECT_NE(err.find("no usable AIPerf record"), std::string::npos) << err;
}

TEST_F(ClientImport, HugeJsonlLineIsRefused) {
    std::string text = aiperf_line(0, kEpoch, 30.0, {5.0});
    text.pop_back();  // the huge record continues the line
    text += std::string((std::size_t{65} << 20), ' ');
    std::string err = refused(write("aiperf_huge.jsonl", text));
    EXPECT_NE(err.find("longer than 64 MiB"), std::string::npos) << err;
}

// perf_analyzer's profile_export.json as GenAI-Perf reads it
// (llm_profile_data_parser.py): the role-only first chunk and "[DONE]" carry no
// content and are not tokens.
TEST_F(ClientImport, GenaiPerfExportUsesContentResponses) {
    auto chunk = [](const std::string& delta) {
        return json{{"response", "data: {\"choices\":[{\"index\":0,\"delta\":" + delta +
                                     ",\"finish_reason\":null}],\"object\":\"chat.completion."
                                     "chunk\"}\n\n"}};
    };
    json req = {{"timestamp", kEpoch},
                {"request_inputs", {{"payload", "{}"}}},
                {"response_timestamps",
                 {kEpoch + 1'000, kEpoch + 20'000'123, kEpoch + 27'000'456, kEpoch + 40'000'789,
                  kEpoch + 40'001'000}},
                {"response_outputs",
                 {chunk("{\"role\":\"assistant\"}"),
                  chunk("{\"content\":\"I\"}"),
                  chunk("{\"content\":\" like\"}"),
                  chunk("{\"content\":\" dogs\"}"),
                  {{"response", "data: [DONE]\n\n"}}}}};
    json doc = {{"service_kind", "openai"},
                {"endpoint", "v1/chat/completions"},
                {"experiments",
                 {{{"experiment", {{"mode", "concurrency"}, {"value", 1}}}, {"requests", {req}}}}}};
    std::string path = write("genai_export.json", doc.dump());
    json stats = run_json("stats", path);
    expect_distribution(stats["metrics"]["ttft"], {20'000'123});
    expect_distribution(stats["metrics"]["itl"],
                        {27'000'456 - 20'000'123, 40'000'789 - 27'000'456});
    EXPECT_EQ(stats["output_tokens"], 3);
}

TEST_F(ClientImport, AiperfSummaryOpensAsSummaryDistributions) {
    // profile_export_aiperf.json (export_models.py JsonMetricResult).
    json doc = {{"time_to_first_token",
                 {{"unit", "ms"},
                  {"avg", 41.5},
                  {"p50", 40.25},
                  {"p90", 55.0},
                  {"p95", 60.5},
                  {"p99", 70.0},
                  {"min", 30.0},
                  {"max", 75.0},
                  {"std", 8.5}}},
                {"inter_token_latency", {{"unit", "ms"}, {"avg", 5.25}, {"p50", 5.0}}},
                {"request_latency", {{"unit", "ms"}, {"avg", 900.0}, {"max", 1500.0}}},
                {"input_config", {{"endpoint", {{"type", "chat"}}}}},
                {"was_cancelled", false}};
    std::string path = write("profile_export_aiperf.json", doc.dump());
    json stats = run_json("stats", path);
    EXPECT_EQ(stats["requests"], 0);
    const json& s = stats["summary_metrics"];
    EXPECT_EQ(s["ttft"]["p50"], 40'250'000);
    EXPECT_EQ(s["ttft"]["p95"], 60'500'000);
    EXPECT_EQ(s["ttft"]["std"], 8'500'000);
    EXPECT_EQ(s["tpot"]["mean"], 5'250'000);
    EXPECT_TRUE(s["tpot"]["p99"].is_null());
    EXPECT_EQ(s["e2e"]["max"], 1'500'000'000);
    json info = run_json("info", path);
    EXPECT_NE(diagnostic(info, "summary_only"), nullptr);
}

TEST_F(ClientImport, GenaiPerfSummaryOpensAsSummaryDistributions) {
    // profile_export_genai_perf.json (genai_perf/metrics/statistics.py keys).
    json doc = {{"request_throughput", {{"unit", "requests/sec"}, {"avg", 3.5}}},
                {"time_to_first_token",
                 {{"unit", "ms"},
                  {"avg", 12.0},
                  {"p25", 10.0},
                  {"p50", 11.5},
                  {"p75", 13.0},
                  {"p90", 15.0},
                  {"p95", 16.0},
                  {"p99", 18.0},
                  {"min", 9.0},
                  {"max", 19.0},
                  {"std", 2.0}}},
                {"input_config", {{"model", {"llama"}}, {"service_kind", "openai"}}}};
    json stats = run_json("stats", write("profile_export_genai_perf.json", doc.dump()));
    EXPECT_EQ(stats["summary_metrics"]["ttft"]["p90"], 15'000'000);
    EXPECT_EQ(stats["summary_metrics"]["ttft"]["min"], 9'000'000);
}

}  // namespace
