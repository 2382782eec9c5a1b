// `tokenscope-cli diff` on two real engine traces (../shared/fixtures/engines): vLLM V1
// (A) and SGLang (B), each one decode iteration of batch 32 on an MI300X. The iterations
// are aligned and compared (docs/compare.md, Engine iterations); the windows expected
// are what `breakdown --json --steps` gives for each file alone, never numbers typed in.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_process.h"
#include "support/fixtures.h"

namespace {

using tokenscope::test::fixture_path;
using tokenscope::test::run_cli;

const std::string kVllm = "engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz";
const std::string kSglang = "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz";

nlohmann::json cli_json(const std::string& args) {
    auto r = run_cli(args);
    EXPECT_EQ(r.status, 0) << args << "\n" << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

// The one step's window of a file opened alone, in ns.
std::int64_t window_ns(const std::string& fixture) {
    const auto j = cli_json("breakdown --json --steps " + fixture_path(fixture));
    EXPECT_FALSE(j.is_discarded());
    const auto& rows = j["runs"][0]["step_rows"];
    EXPECT_EQ(rows.size(), 1u);
    return rows[0]["end_ns"].get<std::int64_t>() - rows[0]["start_ns"].get<std::int64_t>();
}

std::string both() {
    return fixture_path(kVllm) + " " + fixture_path(kSglang);
}

class IterationDiffCli : public ::testing::Test {
  protected:
    void SetUp() override {
        TOKENSCOPE_NEED_FIXTURE(kVllm);
        TOKENSCOPE_NEED_FIXTURE(kSglang);
    }
};

TEST_F(IterationDiffCli, JsonAlignsTheDecodeIterationsAndSplitsTheDelta) {
    const std::int64_t a = window_ns(kVllm), b = window_ns(kSglang);
    const auto j = cli_json("diff --json " + both());
    ASSERT_FALSE(j.is_discarded());
    ASSERT_TRUE(j.contains("iterations")) << j.dump().substr(0, 2000);
    const auto& phases = j["iterations"]["phases"];
    ASSERT_EQ(phases.size(), 1u);
    const auto& d = phases[0];
    EXPECT_EQ(d["phase"], "decode");
    EXPECT_EQ(d["aligned"], 1);
    EXPECT_EQ(d["a"]["count"], 1);
    EXPECT_EQ(d["b"]["count"], 1);
    EXPECT_EQ(d["pairs"][0]["a_ns"].get<std::int64_t>(), a);
    EXPECT_EQ(d["pairs"][0]["b_ns"].get<std::int64_t>(), b);
    EXPECT_DOUBLE_EQ(d["a"]["duration_ns"]["p50"].get<double>(), double(a));
    EXPECT_DOUBLE_EQ(d["b"]["duration_ns"]["p50"].get<double>(), double(b));
    const double delta = d["p50_delta_ns"].get<double>();
    EXPECT_DOUBLE_EQ(delta, double(b - a));
    // One iteration a side: nothing left between P50 and mean; roles + idle = the delta.
    EXPECT_DOUBLE_EQ(d["rest_ns"].get<double>(), 0.0);
    double parts = 0;
    for (const auto& [key, p] : d["parts"].items()) parts += p["delta_ns"].get<double>();
    EXPECT_NEAR(parts, delta, 1.0);
    // And each side's roles + idle = its window.
    for (const auto& [side, window] : {std::pair{"a", a}, std::pair{"b", b}}) {
        double sum = d[side]["mean_idle_ns"].get<double>();
        for (const auto& [role, ns] : d[side]["mean_role_ns"].items()) sum += ns.get<double>();
        EXPECT_NEAR(sum, double(window), 1.0) << side;
    }
    // Both ran GEMMs on the GPU, whatever their names (Triton's matmul_ogs, Tensile's Cijk_*).
    EXPECT_GT(d["a"]["mean_role_ns"]["gemm"].get<double>(), 0.0);
    EXPECT_GT(d["b"]["mean_role_ns"]["gemm"].get<double>(), 0.0);
}

TEST_F(IterationDiffCli, TextPrintsTheSentenceAndTheTables) {
    const std::int64_t a = window_ns(kVllm), b = window_ns(kSglang);
    const auto r = run_cli("diff " + both(), "COLUMNS=120");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("engine iterations aligned by phase and index: decode 1 (A 1, B 1)"),
              std::string::npos)
        << r.out;
    char delta[64];
    std::snprintf(delta, sizeof delta, "%.1f ms %s (P50)", std::abs(double(b - a)) / 1e6,
                  b > a ? "slower" : "faster");
    EXPECT_NE(r.out.find(std::string("B's decode iterations are ") + delta), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("decode  GPU idle"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("decode  iteration P50"), std::string::npos) << r.out;
    // Real kernel names (Tensile's run to hundreds of characters) are cut to the
    // terminal: no line of the report is wider than it, no full Tensile name in the text.
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("A: ", 0) == 0 || line.rfind("B: ", 0) == 0) continue;  // file paths
        EXPECT_LE(line.size(), 120u) << line;
    }
    EXPECT_EQ(r.out.find("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1"),
              std::string::npos);
    EXPECT_NE(r.out.find("Cijk_"), std::string::npos);
}

TEST_F(IterationDiffCli, CsvAppendsTheIterationRows) {
    const auto r = run_cli("diff --csv " + both());
    ASSERT_EQ(r.status, 0) << r.err;
    // The tables before keep their places: the metric table's header comes first.
    EXPECT_EQ(r.out.rfind("metric (ms),", 0), 0u) << r.out.substr(0, 200);
    EXPECT_NE(r.out.find("\nphase,A n,B n,aligned,A p50 ms,"), std::string::npos);
    EXPECT_NE(r.out.find("\ndecode,1,1,1,"), std::string::npos);
    EXPECT_NE(r.out.find("\ndecode,GPU idle,"), std::string::npos);
    // CSV keeps full kernel names.
    EXPECT_NE(r.out.find("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1"),
              std::string::npos);
}

}  // namespace
