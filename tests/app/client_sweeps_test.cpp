// Folders of SGLang, guidellm and AIPerf results as sweep points, through the real
// tokenscope-cli sweep-report. Layouts imitated: SGLang python/sglang/bench_serving.py
// (a JSON line per run appended to --output-file, arrays under --output-details), guidellm
// src/guidellm/benchmark/schemas/benchmark.py (one benchmark per strategy, with
// scheduler_metrics' measurement window) and AIPerf's multi-run folders
// (docs/tutorials/multi-run-confidence.md: <name>/profile_runs/run_NNNN/ with
// profile_export.jsonl and profile_export_aiperf.json, and aggregate/). The SLA decides
// each request by hand in the comments.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_process.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path folder(const std::string& name) {
    static const tokenscope::test::TempDir dir("tokenscope-client-sweeps");
    fs::path p = dir.path() / name;
    fs::create_directories(p);
    return p;
}

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

json report(const std::string& args) {
    auto r = tokenscope::test::run_cli("sweep-report --json " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(r.out, nullptr, false);
}

std::map<double, double> attainment_by(const json& j, const char* param) {
    std::map<double, double> out;
    for (const auto& p : j["points"])
        out[p["params"][param].get<double>()] = p["median"]["attainment"].get<double>();
    return out;
}

json sglang_line(double rate, const std::vector<double>& ttfts) {
    json itls = json::array(), errors = json::array(), lens = json::array();
    for (std::size_t i = 0; i < ttfts.size(); ++i) {
        itls.push_back({0.01, 0.01});
        errors.push_back("");
        lens.push_back(3);
    }
    return {{"backend", "sglang"},
            {"dataset_name", "random"},
            {"request_rate", rate},
            {"max_concurrency", nullptr},
            {"mean_e2e_latency_ms", 1.0},
            {"input_lens", lens},
            {"output_lens", lens},
            {"ttfts", ttfts},
            {"itls", itls},
            {"errors", errors}};
}

TEST(ClientSweeps, SglangFolderGivesOnePointPerResultLine) {
    const fs::path dir = folder("sglang");
    // SLA TTFT <= 300 ms; TPOT is 10 ms everywhere. Rate 2: 0.1, 0.2 meet, 0.4 misses.
    // Rate 4: 0.5 misses, 0.1 meets. Rate 8 (a file of its own): all miss.
    write(dir / "sglang_0101_300.jsonl",
          sglang_line(2, {0.1, 0.2, 0.4}).dump() + "\n" + sglang_line(4, {0.5, 0.1}).dump() + "\n");
    write(dir / "more" / "sglang_0102_300.jsonl", sglang_line(8, {0.9, 0.8}).dump() + "\n");
    write(dir / "inputs.json", R"({"data": []})");  // not a result: left out
    json j = report(dir.string() + " --sla-ttft 300ms");
    ASSERT_EQ(j["points"].size(), 3u) << j;
    auto a = attainment_by(j, "request_rate");
    EXPECT_DOUBLE_EQ(a[2], 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(a[4], 1.0 / 2.0);
    EXPECT_DOUBLE_EQ(a[8], 0.0);
    EXPECT_EQ(j["curve"]["x"], "request_rate");
}

// A guidellm benchmark at `rate`: a warm-up request with a 2 s TTFT before the window,
// then TTFTs of 0.1 s and 0.4 s inside it.
json guidellm_benchmark(double rate) {
    const double t = 1'759'813'200.0;
    auto request = [](double start, double ttft) {
        return json{{"info",
                     {{"timings",
                       {{"request_start", start},
                        {"first_token_iteration", start + ttft},
                        {"last_token_iteration", start + ttft + 0.0625},
                        {"request_end", start + ttft + 0.0625}}}}},
                    {"output_tokens", 3}};
    };
    json ok = json::array({request(t, 2.0), request(t + 3, 0.125), request(t + 4, 0.375)});
    return {{"type_", "generative_benchmark"},
            {"config", {{"strategy", {{"type_", "constant"}, {"rate", rate}}}}},
            {"scheduler_metrics", {{"measure_start_time", t + 2.5}, {"measure_end_time", t + 8}}},
            {"requests", {{"successful", ok}, {"errored", json::array()}}}};
}

TEST(ClientSweeps, GuidellmBenchmarksArePointsOfTheirWindow) {
    const fs::path dir = folder("guidellm");
    json file = {{"metadata", {{"version", 2}}},
                 {"benchmarks", {guidellm_benchmark(1), guidellm_benchmark(3)}}};
    write(dir / "benchmarks.json", file.dump());
    // Inside the window 0.125 s meets 300 ms and 0.375 s misses: 1/2 (1/3 with the
    // warm-up request counted as a miss).
    json j = report(dir.string() + " --sla-ttft 300ms");
    ASSERT_EQ(j["points"].size(), 2u);
    auto a = attainment_by(j, "request_rate");
    EXPECT_DOUBLE_EQ(a[1], 0.5);
    EXPECT_DOUBLE_EQ(a[3], 0.5);
    EXPECT_EQ(j["points"][0]["params"]["strategy"], "constant");
}

std::string aiperf_records(double ttft_ms) {
    std::string text;
    for (int i = 0; i < 2; ++i) {
        json meta = {{"request_start_ns", 1'759'813'200'000'000'000LL + i * 1'000'000'000LL},
                     {"benchmark_phase", "profiling"}};
        json metrics = {{"time_to_first_token", {{"value", ttft_ms * (i + 1)}, {"unit", "ms"}}},
                        {"inter_chunk_latency", {{"value", {10.0}}, {"unit", "ms"}}},
                        {"output_sequence_length", {{"value", 2}, {"unit", "tokens"}}}};
        text += json{{"metadata", meta}, {"metrics", metrics}, {"error", nullptr}}.dump() + "\n";
    }
    return text;
}

TEST(ClientSweeps, AiperfMultiRunFolderIsOnePointWithItsRepeats) {
    const fs::path root = folder("aiperf") / "llama-openai-chat-concurrency_4";
    // TTFTs per run: (100, 200), (200, 400), (150, 300) ms; SLA 150 ms: 1/2, 0, 1/2;
    // the point's figure is the median over its repeats.
    const double ttft[] = {100, 200, 150};
    for (int r = 0; r < 3; ++r) {
        const fs::path run = root / "profile_runs" / ("run_000" + std::to_string(r + 1));
        write(run / "profile_export.jsonl", aiperf_records(ttft[r]));
        json summary = {{"time_to_first_token", {{"unit", "ms"}, {"avg", ttft[r] * 1.5}}},
                        {"input_config", {{"loadgen", {{"concurrency", 4}}}}}};
        write(run / "profile_export_aiperf.json", summary.dump());
    }
    write(root / "aggregate" / "profile_export_aiperf_aggregate.json",
          R"({"metadata": {"aggregation_type": "confidence"}, "metrics": {}})");
    json j = report(root.parent_path().string() + " --sla-ttft 150ms");
    ASSERT_EQ(j["points"].size(), 1u) << j;
    const json& p = j["points"][0];
    EXPECT_EQ(p["run_ids"].size(), 3u);
    EXPECT_EQ(p["params"]["max_concurrency"].get<double>(), 4);
    EXPECT_EQ(p["params"]["file"], root.string());
    EXPECT_DOUBLE_EQ(p["median"]["attainment"].get<double>(), 0.5);
}

TEST(ClientSweeps, FolderWithoutResultsIsRefused) {
    const fs::path dir = folder("empty");
    write(dir / "notes.json", R"({"hello": 1})");
    auto r = tokenscope::test::run_cli("sweep-report " + dir.string());
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("no serving-benchmark or load-generator result"), std::string::npos)
        << r.err;
    EXPECT_TRUE(tokenscope::test::one_line(r.err)) << r.err;
}

}  // namespace
