// guidellm's measurement window read as guidellm reads it, through the real tokenscope-cli.
// The report imitates vllm-project/guidellm's layout: src/guidellm/benchmark/schemas/
// benchmark.py (GenerativeBenchmark: config.strategy, scheduler_metrics, metrics, requests
// by status), benchmark/schemas/metrics.py (SchedulerMetrics.measure_start_time /
// measure_end_time; GenerativeMetrics.compile counts the requests get_within_range gives),
// benchmark/schemas/accumulator.py (get_within_range: end >= measure start and start <=
// measure end) and schemas/request_stats.py (GenerativeRequestStats: info.timings,
// output_tokens). guidellm's figures in the file are computed here by its rules
// (schemas/statistics.py, DistributionSummary.from_values) from the same numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "client_files_test.h"

namespace {

using nlohmann::json;

constexpr double kT = 1'759'813'200.0;  // Unix seconds, as guidellm writes them
constexpr double kMeasureStart = kT + 1.0, kMeasureEnd = kT + 9.0;

struct Req {
    double start, ttft, decode,
        tail;  // s: first token after start, last after first, end after last
    int tokens;
};

json request_stats(const Req& r, const char* status) {
    const double first = r.start + r.ttft, last = first + r.decode, end = last + r.tail;
    return {{"type_", "generative_request_stats"},
            {"request_id", "r"},
            {"info",
             {{"status", status},
              {"timings",
               {{"resolve_start", r.start - 0.001},
                {"request_start", r.start},
                {"first_token_iteration", first},
                {"last_token_iteration", last},
                {"token_iterations", r.tokens},
                {"request_end", end},
                {"resolve_end", end + 0.001}}}}},
            {"prompt_tokens", 64},
            {"output_tokens", r.tokens}};
}

// DistributionSummary.from_values: weighted mean, and percentile q the first value
// whose cumulative probability reaches q.
struct Weighted {
    double value, weight;
};
double guidellm_mean(const std::vector<Weighted>& v) {
    double sum = 0, weight = 0;
    for (const auto& w : v) sum += w.value * w.weight, weight += w.weight;
    return sum / weight;
}
double guidellm_percentile(std::vector<Weighted> v, double q) {
    std::sort(v.begin(), v.end(),
              [](const Weighted& a, const Weighted& b) { return a.value < b.value; });
    double total = 0, cdf = 0;
    for (const auto& w : v) total += w.weight;
    for (const auto& w : v)
        if ((cdf += w.weight / total) >= q) return w.value;
    return v.back().value;
}
json distribution(const std::vector<Weighted>& v) {
    json p;
    for (auto [key, q] : {std::pair{"p50", 0.5}, {"p90", 0.9}, {"p95", 0.95}, {"p99", 0.99}})
        p[key] = guidellm_percentile(v, q);
    return {{"mean", guidellm_mean(v)}, {"percentiles", p}};
}

// Inside [1 s, 9 s] after kT: B ends exactly at the start, D starts exactly at the end.
// Durations are binary fractions, so that the sums fall exactly on the window's edges.
const std::vector<Req> kWarmup = {{kT + 0.0, 0.25, 0.375, 0.125, 9}};       // A: ends 0.75
const std::vector<Req> kInside = {{kT + 0.5, 0.125, 0.25, 0.125, 14},       // B: ends 1.00
                                  {kT + 3.0, 0.25, 0.5, 0.015625, 11},      // C
                                  {kT + 5.0, 0.125, 0.625, 0.03125, 21},    // C'
                                  {kT + 9.0, 0.25, 0.1875, 0.0078125, 5}};  // D: starts 9.00
const std::vector<Req> kCooldown = {{kT + 9.001, 0.05, 0.125, 0.0625, 3}};  // E

// guidellm's per-request values (request_stats.py) from the timings as written, with the
// weights GenerativeMetrics.compile gives them.
struct Values {
    std::vector<Weighted> ttft, itl, tpot, latency;
};
void add_values(Values& v, const json& stats) {
    const json& t = stats["info"]["timings"];
    const double start = t["request_start"], first = t["first_token_iteration"],
                 last = t["last_token_iteration"], end = t["request_end"];
    const double n = stats["output_tokens"];
    v.ttft.push_back({1000 * (first - start), 1});
    v.itl.push_back({1000 * (last - first) / (n - 1), n - 1});
    v.tpot.push_back({1000 * (last - start) / n, n});
    v.latency.push_back({end - start, 1});
}

json benchmark(double rate) {
    json successful = json::array();
    for (const auto* list : {&kWarmup, &kInside, &kCooldown})
        for (const auto& r : *list) successful.push_back(request_stats(r, "completed"));
    // An errored request before the window: guidellm leaves it out too.
    json errored = json::array({request_stats({kT + 0.125, 0.0625, 0.0625, 0.0, 2}, "errored")});
    errored[0]["info"]["error"] = "HTTP 503";
    Values v;
    for (std::size_t i = 0; i < kInside.size(); ++i) add_values(v, successful[kWarmup.size() + i]);
    const auto& [ttft, itl, tpot, latency] = v;
    json metrics = {{"request_totals", {{"successful", kInside.size()}, {"errored", 0}}},
                    {"time_to_first_token_ms", {{"successful", distribution(ttft)}}},
                    {"inter_token_latency_ms", {{"successful", distribution(itl)}}},
                    {"time_per_output_token_ms", {{"successful", distribution(tpot)}}},
                    {"request_latency", {{"successful", distribution(latency)}}}};
    return {{"type_", "generative_benchmark"},
            {"config", {{"strategy", {{"type_", "constant"}, {"rate", rate}}}}},
            {"scheduler_metrics",
             {{"request_start_time", kT},
              {"measure_start_time", kMeasureStart},
              {"measure_end_time", kMeasureEnd},
              {"request_end_time", kT + 9.2}}},
            {"metrics", metrics},
            {"requests",
             {{"successful", successful}, {"errored", errored}, {"incomplete", json::array()}}}};
}

json report(const json& benchmarks) {
    return {{"metadata", {{"version", 2}, {"guidellm_version", "0.5.0"}}},
            {"benchmarks", benchmarks}};
}

class ClientWindows : public tokenscope::test::ClientFilesTest {
  protected:
    static void SetUpTestSuite() { make_dir("tokenscope_windows_test_"); }
    static const json* figure(const json& run, const std::string& metric, const std::string& stat) {
        for (const auto& f : run["tool_figures"])
            if (f["metric"] == metric && f["stat"] == stat) return &f;
        return nullptr;
    }
};

TEST_F(ClientWindows, GuidellmWindowLeavesOutWarmupAndCooldownAtItsEdges) {
    std::string path = write("benchmarks.json", report(json::array({benchmark(4.0)})).dump());
    json stats = run_json("stats", path);
    // Ids in the report's order: successful A, B, C, C', D, E, then errored F.
    const json& w = stats["measurement_window"];
    EXPECT_EQ(w["tool"], "guidellm");
    EXPECT_EQ(w["warmup_requests"], json::array({1, 7}));
    EXPECT_EQ(w["cooldown_requests"], json::array({6}));
    EXPECT_EQ(w["start_ns"].get<double>(), std::llround(kMeasureStart * 1e9));
    EXPECT_EQ(stats["requests"], kInside.size());
    EXPECT_EQ(stats["warmup_requests"], 3);
    EXPECT_EQ(stats["failed_requests"], 0);  // the errored one is outside the window
    double ttft_sum = 0;
    for (const auto& r : kInside) ttft_sum += r.ttft;
    EXPECT_NEAR(stats["metrics"]["ttft"]["mean"].get<double>(), ttft_sum / kInside.size() * 1e9,
                2e3);  // µs-exact: Unix seconds in doubles
    // The excluded requests stay in the run.
    json info = run_json("info", path);
    EXPECT_EQ(info["requests"], 7);
    const json* d = diagnostic(info, "client_measurement_window");
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->at("value"), 3);
}

TEST_F(ClientWindows, GuidellmFiguresBesideOursWithTheirRules) {
    json file = report(json::array({benchmark(4.0)}));
    json stats = run_json("stats", write("benchmarks_figures.json", file.dump()));
    const json& m = file["benchmarks"][0]["metrics"];
    // TTFT mean: one definition, inside the window: agrees.
    const json* ttft = figure(stats, "ttft", "mean");
    ASSERT_NE(ttft, nullptr);
    EXPECT_NEAR((*ttft)["tool_ns"].get<double>(),
                m["time_to_first_token_ms"]["successful"]["mean"].get<double>() * 1e6, 1.0);
    EXPECT_EQ((*ttft)["verdict"], "agrees");
    // Its mean gap between tokens is ours (tokens evenly spaced).
    EXPECT_EQ((*figure(stats, "itl", "mean"))["verdict"], "agrees");
    // Time per output token includes the TTFT, request latency runs to the response's end:
    // the definitions explain the difference, guidellm's rule gives its figure.
    for (const char* metric : {"tpot", "e2e"}) {
        const json* f = figure(stats, metric, "mean");
        ASSERT_NE(f, nullptr) << metric;
        EXPECT_FALSE((*f)["same_definition"].get<bool>());
        EXPECT_NEAR((*f)["recomputed_ns"].get<double>(), (*f)["tool_ns"].get<double>(),
                    (*f)["tool_ns"].get<double>() * 1e-9);
        EXPECT_NE((*f)["verdict"], "differs");
        EXPECT_FALSE((*f)["flagged"].get<bool>()) << *f;
    }
    // Percentiles without interpolation: recomputed exactly, never flagged.
    for (const auto& f : stats["tool_figures"]) EXPECT_FALSE(f["flagged"].get<bool>()) << f;
    const json* p90 = figure(stats, "ttft", "p90");
    ASSERT_NE(p90, nullptr);
    EXPECT_NEAR((*p90)["recomputed_ns"].get<double>(),
                m["time_to_first_token_ms"]["successful"]["percentiles"]["p90"].get<double>() * 1e6,
                1.0);
}

TEST_F(ClientWindows, GuidellmFigureOfAllRequestsIsFlagged) {
    // A mean over all listed requests, as Tokenscope computed before reading the window.
    json file = report(json::array({benchmark(4.0)}));
    double all = 0;
    for (const auto* list : {&kWarmup, &kInside, &kCooldown})
        for (const auto& r : *list) all += 1000 * r.ttft / 6;  // 175 ms; inside: 187.5 ms
    file["benchmarks"][0]["metrics"]["time_to_first_token_ms"]["successful"]["mean"] = all;
    json stats = run_json("stats", write("benchmarks_all.json", file.dump()));
    const json* ttft = figure(stats, "ttft", "mean");
    ASSERT_NE(ttft, nullptr);
    EXPECT_EQ((*ttft)["verdict"], "differs");
    EXPECT_TRUE((*ttft)["flagged"].get<bool>());
}

TEST_F(ClientWindows, EachGuidellmBenchmarkIsARun) {
    std::string path = write("sweep_benchmarks.json",
                             report(json::array({benchmark(2.0), benchmark(8.0)})).dump());
    Result r = cli("stats " + path + " --json --progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    json j = json::parse(r.out);
    ASSERT_EQ(j["runs"].size(), 2u);
    EXPECT_EQ(j["runs"][0]["name"], "sweep_benchmarks constant@2.00");
    EXPECT_EQ(j["runs"][1]["name"], "sweep_benchmarks constant@8.00");
    for (const auto& run : j["runs"]) {
        EXPECT_EQ(run["requests"], kInside.size());
        EXPECT_EQ(run["measurement_window"]["cooldown_requests"], json::array({6}));
    }
}

TEST_F(ClientWindows, OlderGuidellmReportsHaveNoWindow) {
    // Before guidellm's benchmark refactor: flat times, no scheduler_metrics.
    json req = {{"request_id", "r"},
                {"prompt_tokens", 64},
                {"output_tokens", 2},
                {"start_time", kT},
                {"first_token_time", kT + 0.025},
                {"last_token_time", kT + 0.045}};
    json bench = {{"type_", "generative_benchmark"},
                  {"requests", {{"successful", json::array({req})}, {"errored", json::array()}}}};
    json stats = run_json("stats", write("old.json", report(json::array({bench})).dump()));
    EXPECT_FALSE(stats.contains("measurement_window"));
    EXPECT_EQ(stats["requests"], 1);
}

}  // namespace
