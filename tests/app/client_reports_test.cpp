// guidellm and LLMPerf results opened through the real tokenscope-cli, and vLLM
// `bench serve` results still opened by the serving importer. Files are written
// here from the fields of the tools' public code (profiler/import/client/*.h);
// expected values are computed here from the same numbers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>

#include "client_files_test.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using Result = tokenscope::test::CliResult;

class ClientReports : public tokenscope::test::ClientFilesTest {
  protected:
    static void SetUpTestSuite() { make_dir("tokenscope_reports_test_"); }
};

constexpr double kStart = 1'759'813'207.25;  // Unix seconds, as guidellm writes them

// A GenerativeRequestStats of the current guidellm (schemas/request_stats.py, info.py).
json guidellm_request(double start, double first, double last, int output_tokens) {
    return {{"type_", "generative_request_stats"},
            {"request_id", "r"},
            {"info",
             {{"status", "completed"},
              {"timings",
               {{"request_start", start},
                {"first_token_iteration", first},
                {"last_token_iteration", last},
                {"token_iterations", output_tokens},
                {"request_end", last}}}}},
            {"prompt_tokens", 128},
            {"output_tokens", output_tokens}};
}

// Arrays are spelled json::array(...): a braced {x} for a json parameter is a copy of
// x under clang and a one-element array under GCC (nlohmann/json's known pitfall).
json guidellm_report(json successful, json errored) {
    json bench = {
        {"type_", "generative_benchmark"},
        {"requests",
         {{"successful", successful}, {"errored", errored}, {"incomplete", json::array()}}}};
    return {{"metadata", {{"version", 2}, {"guidellm_version", "0.5.0"}}}, {"benchmarks", {bench}}};
}

TEST_F(ClientReports, GuidellmRequestsGiveTtftAndEvenlySpacedTokens) {
    // TTFT 50 ms and 80 ms; 5 tokens over 40 ms (ITL 10 ms), 3 tokens over 30 ms (15 ms).
    json ok = {guidellm_request(kStart, kStart + 0.050, kStart + 0.090, 5),
               guidellm_request(kStart + 1, kStart + 1.080, kStart + 1.110, 3)};
    json failed = guidellm_request(kStart + 2, kStart + 2.1, kStart + 2.2, 0);
    failed["info"]["status"] = "errored";
    failed["info"]["error"] = "HTTP 503";
    std::string path = write("benchmarks.json", guidellm_report(ok, json::array({failed})).dump());
    json stats = run_json("stats", path);
    const json& m = stats["metrics"];
    EXPECT_EQ(m["ttft"]["count"], 2);
    EXPECT_NEAR(m["ttft"]["min"].get<double>(), 50e6, 1e3);  // seconds as doubles: µs-exact
    EXPECT_NEAR(m["ttft"]["max"].get<double>(), 80e6, 1e3);
    EXPECT_EQ(m["itl"]["count"], 4 + 2);
    EXPECT_NEAR(m["itl"]["min"].get<double>(), 10e6, 1e3);
    EXPECT_NEAR(m["itl"]["max"].get<double>(), 15e6, 1e3);
    EXPECT_NEAR(m["e2e"]["max"].get<double>(), 110e6, 1e3);
    EXPECT_EQ(stats["failed_requests"], 1);
    json info = run_json("info", path);
    EXPECT_NE(diagnostic(info, "client_itl_interpolated"), nullptr);
    const json* f = diagnostic(info, "failed_requests");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->at("text").get<std::string>().find("HTTP 503"), std::string::npos);
}

TEST_F(ClientReports, GuidellmOlderFlatLayout) {
    // GenerativeTextResponseStats before guidellm's benchmark refactor.
    json req = {{"request_id", "r"},
                {"prompt_tokens", 64},
                {"output_tokens", 2},
                {"start_time", kStart},
                {"first_token_time", kStart + 0.025},
                {"last_token_time", kStart + 0.045},
                {"end_time", kStart + 0.046},
                {"time_to_first_token_ms", 25.0}};
    json stats = run_json(
        "stats",
        write("old_guidellm.json", guidellm_report(json::array({req}), json::array()).dump()));
    EXPECT_NEAR(stats["metrics"]["ttft"]["p50"].get<double>(), 25e6, 1e3);
    EXPECT_NEAR(stats["metrics"]["itl"]["p50"].get<double>(), 20e6, 1e3);
}

TEST_F(ClientReports, GuidellmWithoutRequestSamplesOpensItsStatistics) {
    json dist = {{"mean", 61.5},
                 {"median", 60.0},
                 {"std_dev", 4.0},
                 {"min", 50.0},
                 {"max", 90.0},
                 {"count", 200},
                 {"percentiles", {{"p50", 60.0}, {"p90", 70.0}, {"p95", 75.0}, {"p99", 85.0}}}};
    json report = guidellm_report(json::array(), json::array());
    report["benchmarks"][0]["metrics"] = {{"time_to_first_token_ms", {{"successful", dist}}}};
    json stats = run_json("stats", write("guidellm_stats.json", report.dump()));
    const json& ttft = stats["summary_metrics"]["ttft"];
    EXPECT_EQ(ttft["count"], 200);
    EXPECT_EQ(ttft["p99"], 85'000'000);
    EXPECT_EQ(ttft["std"], 4'000'000);
    EXPECT_EQ(stats["requests"], 0);
}

// token_benchmark_ray.py's individual responses: common_metrics.py's keys.
json llmperf_record(double ttft_s, double e2e_s, int output_tokens) {
    return {{"error_code", nullptr},
            {"error_msg", ""},
            {"inter_token_latency_s", e2e_s / output_tokens},
            {"ttft_s", ttft_s},
            {"end_to_end_latency_s", e2e_s},
            {"request_output_throughput_token_per_s", output_tokens / e2e_s},
            {"number_total_tokens", 550 + output_tokens},
            {"number_output_tokens", output_tokens},
            {"number_input_tokens", 550}};
}

TEST_F(ClientReports, LlmperfIndividualResponses) {
    json failed = llmperf_record(0, 0.5, 1);
    failed["error_code"] = 429;
    failed["error_msg"] = "rate limited";
    json doc = {llmperf_record(0.125, 0.625, 11), llmperf_record(0.25, 0.5, 2), failed};
    std::string path = write("llama_550_150_individual_responses.json", doc.dump());
    json stats = run_json("stats", path);
    const json& m = stats["metrics"];
    EXPECT_EQ(m["ttft"]["count"], 2);
    EXPECT_EQ(m["ttft"]["min"], 125e6);
    EXPECT_EQ(m["ttft"]["max"], 250e6);
    EXPECT_EQ(m["e2e"]["max"], 625e6);
    // 10 gaps of (0.625 - 0.125) / 10 s and one of 0.25 s; TPOT is the same per request.
    EXPECT_EQ(m["itl"]["count"], 11);
    EXPECT_EQ(m["itl"]["min"], 50e6);
    EXPECT_EQ(m["itl"]["max"], 250e6);
    EXPECT_EQ(stats["failed_requests"], 1);
    json info = run_json("info", path);
    EXPECT_NE(diagnostic(info, "synthesised_arrival_times"), nullptr);
}

TEST_F(ClientReports, LlmperfSummary) {
    json doc = {{"version", "2023-08-31"},
                {"name", "llama_550_150_summary"},
                {"model", "llama"},
                {"results_ttft_s_quantiles_p50", 0.125},
                {"results_ttft_s_quantiles_p90", 0.25},
                {"results_ttft_s_quantiles_p99", 0.5},
                {"results_ttft_s_mean", 0.15},
                {"results_ttft_s_stddev", 0.05},
                {"results_end_to_end_latency_s_max", 2.5},
                {"results_num_completed_requests", 100}};
    json stats = run_json("stats", write("llama_550_150_summary.json", doc.dump()));
    const json& s = stats["summary_metrics"];
    EXPECT_EQ(s["ttft"]["p90"], 250'000'000);
    EXPECT_EQ(s["ttft"]["mean"], 150'000'000);
    EXPECT_EQ(s["ttft"]["count"], 100);
    EXPECT_EQ(s["e2e"]["max"], 2'500'000'000);
}

TEST_F(ClientReports, VllmBenchServeStillOpensAsServingResult) {
    json doc = {{"backend", "vllm"},     {"model_id", "llama"},  {"request_rate", 2.0},
                {"ttfts", {0.1, 0.2}},   {"itls", {{0.01}, {}}}, {"input_lens", {8, 8}},
                {"output_lens", {2, 1}}, {"errors", {"", ""}}};
    std::string path = write("vllm_bench.json", doc.dump());
    json stats = run_json("stats", path);
    EXPECT_EQ(stats["metrics"]["ttft"]["count"], 2);
    EXPECT_EQ(stats["metrics"]["itl"]["max"], 10e6);
    EXPECT_FALSE(stats.contains("summary_metrics"));
}

TEST_F(ClientReports, UnrecognisedOrBrokenFilesGiveOneLineErrors) {
    for (const auto& [name, text, expect] :
         {std::tuple{"other.json", std::string("{\"hello\": 1}"), "not a recognised"},
          {"guidellm_broken.json",
           std::string("{\"benchmarks\": [{\"type_\": \"generative_benchmark\""), "invalid JSON"},
          {"llmperf_empty.json", std::string("[{\"ttft_s\": null, \"error_code\": null}]"),
           "without a usable request"}}) {
        std::string path = write(name, text);
        Result r = cli("info " + path + " --progress none");
        EXPECT_EQ(r.status, 1) << name << ": " << r.out;
        EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(expect), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

}  // namespace
