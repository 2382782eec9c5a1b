// A load generator's own figures beside ours (docs/metrics.md, Load generators' own
// figures), through the real tokenscope-cli. The shared client fixtures are read in place;
// every expected figure is read from the fixture files here (Python's json would give the
// same), never from Tokenscope's output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "client_files_test.h"
#include "support/fixtures.h"

namespace {

using nlohmann::json;
using tokenscope::test::fixture_path;

constexpr const char* kLlmperf = "clients/llmperf_individual_together_llama2_70b.json";
constexpr const char* kLlmperfSummary = "clients/llmperf_summary_together_llama2_70b.json";
constexpr const char* kVllm = "clients/vllm_bench_llama3.3_70b_a100x8_tp8_qps4.json";

json read_json(const std::string& path) {
    std::ifstream in(path);
    return json::parse(in, nullptr, false);
}

// The figure of `field` in a stats run's tool_figures.
json figure(const json& run, const std::string& field) {
    for (const auto& f : run["tool_figures"])
        if (f["field"] == field) return f;
    ADD_FAILURE() << "no tool figure " << field;
    return json::object();
}

std::string ms2(double ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f ms", ns / 1e6);
    return buf;
}

class ClientFigures : public tokenscope::test::ClientFilesTest {
  protected:
    static void SetUpTestSuite() { make_dir("tokenscope_figures_test_"); }
};

TEST_F(ClientFigures, LlmperfInterTokenLatencyBesideOursWithEachDefinition) {
    TOKENSCOPE_NEED_FIXTURE(kLlmperf);
    const json records = read_json(fixture_path(kLlmperf));
    const json summary = read_json(fixture_path(kLlmperfSummary));
    ASSERT_TRUE(records.is_array());
    // Ours: the gaps between tokens; LLMPerf keeps the first and last token only, the
    // tokens between evenly spaced, so the mean gap is sum(e2e - ttft) / sum(n - 1).
    double gaps = 0, count = 0, their_rule = 0, ttft = 0;
    for (const auto& r : records) {
        gaps += r["end_to_end_latency_s"].get<double>() - r["ttft_s"].get<double>();
        count += r["number_output_tokens"].get<double>() - 1;
        their_rule += r["inter_token_latency_s"].get<double>() / records.size();
        ttft += r["ttft_s"].get<double>() / records.size();
    }
    const double ours_itl = gaps / count * 1e9;
    const double their_itl = summary["results_inter_token_latency_s_mean"].get<double>() * 1e9;
    EXPECT_NEAR(ours_itl, 11.855e6, 1e3);  // the figures
    EXPECT_NEAR(their_itl, 15.781e6, 1e3);

    const std::string path = fixture_path(kLlmperf);
    json stats = run_json("stats", path);
    EXPECT_NEAR(stats["metrics"]["itl"]["mean"].get<double>(), ours_itl, 1e3);
    json itl = figure(stats, "results_inter_token_latency_s_mean");
    EXPECT_EQ(itl["tool"], "LLMPerf");
    EXPECT_EQ(itl["file"], "llmperf_summary_together_llama2_70b.json");
    EXPECT_EQ(itl["metric"], "itl");
    EXPECT_FALSE(itl["same_definition"].get<bool>());
    EXPECT_NEAR(itl["tool_ns"].get<double>(), their_itl, 1.0);
    EXPECT_NEAR(itl["ours_ns"].get<double>(), ours_itl, 1e3);
    // LLMPerf's rule (each record's inter_token_latency_s, averaged) gives its figure:
    // the 25 % gap is the definitions', not flagged.
    EXPECT_NEAR(itl["recomputed_ns"].get<double>(), their_rule * 1e9, 1.0);
    EXPECT_EQ(itl["verdict"], "definitions_differ");
    EXPECT_FALSE(itl["flagged"].get<bool>());

    json ttft_figure = figure(stats, "results_ttft_s_mean");
    EXPECT_NEAR(ttft_figure["tool_ns"].get<double>(),
                summary["results_ttft_s_mean"].get<double>() * 1e9, 1.0);
    EXPECT_NEAR(ttft_figure["ours_ns"].get<double>(), ttft * 1e9, 1e3);
    EXPECT_EQ(ttft_figure["verdict"], "agrees");
    json p99 = figure(stats, "results_end_to_end_latency_s_quantiles_p99");
    EXPECT_NEAR(p99["tool_ns"].get<double>(),
                summary["results_end_to_end_latency_s_quantiles_p99"].get<double>() * 1e9, 1.0);
    EXPECT_EQ(p99["verdict"], "agrees");
    for (const auto& f : stats["tool_figures"]) EXPECT_FALSE(f["flagged"].get<bool>()) << f;

    Result text = cli("stats " + path + " --progress none");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("LLMPerf inter-token latency, TTFT included: " + ms2(their_itl) +
                            "; Tokenscope ITL, the gaps between tokens: " + ms2(ours_itl)),
              std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("FLAGGED"), std::string::npos) << text.out;
}

TEST_F(ClientFigures, VllmBenchFiguresAgreeWithOurs) {
    TOKENSCOPE_NEED_FIXTURE(kVllm);
    const json file = read_json(fixture_path(kVllm));
    json stats = run_json("stats", fixture_path(kVllm));
    ASSERT_TRUE(stats.contains("tool_figures")) << stats;
    int seen = 0;
    for (const char* metric : {"ttft", "tpot", "itl"})
        for (const char* stat : {"mean", "median", "std", "p99"}) {
            const std::string field = std::string(stat) + "_" + metric + "_ms";
            json f = figure(stats, field);
            EXPECT_NEAR(f["tool_ns"].get<double>(), file[field].get<double>() * 1e6, 1.0);
            EXPECT_TRUE(f["same_definition"].get<bool>());
            EXPECT_EQ(f["verdict"], "agrees") << f;
            ++seen;
        }
    EXPECT_EQ(stats["tool_figures"].size(), static_cast<std::size_t>(seen));
    EXPECT_NEAR(stats["metrics"]["ttft"]["mean"].get<double>(),
                file["mean_ttft_ms"].get<double>() * 1e6, 1.0);
    EXPECT_NEAR(stats["metrics"]["itl"]["mean"].get<double>(),
                file["mean_itl_ms"].get<double>() * 1e6, 1.0);
}

// vLLM's results (benchmarks/benchmark_serving.py, --save-result --save-detailed) with a
// mean TTFT 5 % above the one its arrays give: the definitions agree, so it is flagged.
TEST_F(ClientFigures, ADifferenceTheDefinitionsDoNotExplainIsFlagged) {
    json doc = {{"backend", "vllm"},
                {"model_id", "m"},
                {"request_rate", 2.0},
                {"ttfts", {0.1, 0.3}},
                {"itls", json::array({json::array({0.01}), json::array({0.01})})},
                {"input_lens", {8, 8}},
                {"output_lens", {2, 2}},
                {"errors", {"", ""}},
                {"mean_ttft_ms", 210.0},
                {"mean_itl_ms", 10.0}};
    std::string path = write("vllm_flagged.json", doc.dump());
    json stats = run_json("stats", path);
    json ttft = figure(stats, "mean_ttft_ms");
    EXPECT_NEAR(ttft["ours_ns"].get<double>(), 200e6, 1.0);
    EXPECT_NEAR(ttft["difference"].get<double>(), 200.0 / 210.0 - 1, 1e-9);
    EXPECT_EQ(ttft["verdict"], "differs");
    EXPECT_TRUE(ttft["flagged"].get<bool>());
    EXPECT_EQ(figure(stats, "mean_itl_ms")["verdict"], "agrees");
    Result text = cli("stats " + path + " --progress none");
    EXPECT_NE(text.out.find("FLAGGED mean_ttft_ms (ttft mean): differs by -4.8 %"),
              std::string::npos)
        << text.out;
}

// LLMPerf's token_benchmark_ray.py writes <name>_individual_responses.json and
// <name>_summary.json side by side; this summary is not of these records.
TEST_F(ClientFigures, LlmperfSummaryOfOtherRecordsIsUnexplained) {
    json record = {{"error_code", nullptr},
                   {"error_msg", ""},
                   {"ttft_s", 0.5},
                   {"end_to_end_latency_s", 1.5},
                   {"inter_token_latency_s", 0.1},
                   {"number_output_tokens", 11},
                   {"number_input_tokens", 100}};
    write("bench_individual_responses.json", json::array({record, record}).dump());
    json summary = {{"results_ttft_s_mean", 0.5},
                    {"results_inter_token_latency_s_mean", 0.2},
                    {"results_num_completed_requests", 3},
                    {"num_concurrent_requests", 4}};
    write("bench_summary.json", summary.dump());
    json stats = run_json("stats", (dir_ / "bench_individual_responses.json").string());
    json itl = figure(stats, "results_inter_token_latency_s_mean");
    EXPECT_NEAR(itl["ours_ns"].get<double>(), 100e6, 1.0);  // (1.5 - 0.5) / 10
    EXPECT_NEAR(itl["recomputed_ns"].get<double>(), 100e6, 1.0);
    EXPECT_EQ(itl["verdict"], "unexplained");
    EXPECT_TRUE(itl["flagged"].get<bool>());
    EXPECT_EQ(figure(stats, "results_ttft_s_mean")["verdict"], "agrees");
    json info = run_json("info", (dir_ / "bench_individual_responses.json").string());
    EXPECT_NE(diagnostic(info, "tool_summary_mismatch"), nullptr);
}

TEST_F(ClientFigures, RecordsWithoutASummaryBesideHaveNoToolFigures) {
    json record = {{"error_code", nullptr},
                   {"ttft_s", 0.5},
                   {"end_to_end_latency_s", 1.5},
                   {"number_output_tokens", 11}};
    json stats =
        run_json("stats", write("alone_individual_responses.json", json::array({record}).dump()));
    EXPECT_FALSE(stats.contains("tool_figures"));
    EXPECT_EQ(stats["metrics"]["ttft"]["count"], 1);
}

}  // namespace
