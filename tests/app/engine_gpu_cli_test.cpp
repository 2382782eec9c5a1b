// `tokenscope-cli info` names the GPU of each real engine trace (fixtures/engines/): from
// the trace's device name, or, for the vLLM V1 traces whose deviceProperties name is
// "", inferred from gfx 9.4, 304 CUs and 192 GiB and said to be inferred. The figures
// are the datasheets' (trace/gpu_catalog.cpp); tests/import/engine_gpu_test.cpp derives
// the expected model from each fixture's deviceProperties.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_process.h"
#include "support/fixtures.h"

namespace {

using tokenscope::test::run_cli;

struct Row {
    const char* fixture;
    const char* gpu_line;  // the text `info` prints
    const char* name;      // gpu.name in --json
    double bandwidth;
    int links;
};

TEST(EngineGpuCli, InfoNamesTheGpuOfEachEngineFixture) {
    const char* kInferred = "AMD Instinct MI300X (inferred from 304 CUs, gfx9.4, 192 GiB)";
    const Row kTable[] = {
        {"engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz",
         "  gpu: AMD Instinct MI300X (inferred from 304 CUs, gfx9.4, 192 GiB), 5.30 TB/s, "
         "1307 TFLOP/s, 304 CUs, NVLink / xGMI 7 links\n",
         kInferred, 5.3e12, 7},
        {"engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz",
         "  gpu: AMD Instinct MI300X (inferred from 304 CUs, gfx9.4, 192 GiB), 5.30 TB/s, "
         "1307 TFLOP/s, 304 CUs, NVLink / xGMI 7 links\n",
         kInferred, 5.3e12, 7},
        {"engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz",
         "  gpu: AMD Instinct MI300X, 5.30 TB/s, 1307 TFLOP/s, 304 CUs, NVLink / xGMI 7 links\n",
         "AMD Instinct MI300X", 5.3e12, 7},
        {"engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz",
         "  gpu: NVIDIA H100 80GB HBM3, 3.35 TB/s, 989 TFLOP/s, 132 SMs, NVLink / xGMI 18 links\n",
         "NVIDIA H100 80GB HBM3", 3.35e12, 18},
    };
    for (const auto& row : kTable) {
        SCOPED_TRACE(row.fixture);
        TOKENSCOPE_NEED_FIXTURE(row.fixture);
        const std::string path = tokenscope::test::fixture_path(row.fixture);
        auto text = run_cli("info --progress none " + path);
        ASSERT_EQ(text.status, 0) << text.err;
        EXPECT_NE(text.out.find(row.gpu_line), std::string::npos) << text.out;
        EXPECT_EQ(text.out.find("gpu: unknown"), std::string::npos);
        auto json = run_cli("info --progress none --json " + path);
        ASSERT_EQ(json.status, 0) << json.err;
        const auto gpu = nlohmann::json::parse(json.out)["runs"][0]["gpu"];
        EXPECT_EQ(gpu["name"], row.name);
        EXPECT_DOUBLE_EQ(gpu["peak_bandwidth_bytes_per_s"].get<double>(), row.bandwidth);
        EXPECT_EQ(gpu["nvlink_links"], row.links);  // JSON keys stay "nvlink"
    }
}

// xGMI counts as NVLink (DESIGN.md section 14): the category's row of the text table
// reads "NVLink / xGMI"; CSV and JSON keep the key "nvlink".
TEST(EngineGpuCli, BreakdownNamesTheNvlinkCategoryNvlinkXgmi) {
    const char* kFixture = "engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz";
    TOKENSCOPE_NEED_FIXTURE(kFixture);
    const std::string path = tokenscope::test::fixture_path(kFixture);
    auto text = run_cli("breakdown --progress none " + path);
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("\nNVLink / xGMI "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(" NVLink / xGMI ms "), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("\nnvlink "), std::string::npos) << text.out;
    auto csv = run_cli("breakdown --progress none --csv " + path);
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_NE(csv.out.find("\nnvlink,"), std::string::npos) << csv.out;
    EXPECT_EQ(csv.out.find("xGMI"), std::string::npos) << csv.out;
    auto json = run_cli("breakdown --progress none --json " + path);
    ASSERT_EQ(json.status, 0) << json.err;
    EXPECT_TRUE(nlohmann::json::parse(json.out)["runs"][0]["assigned_ns"].contains("nvlink"));
}

}  // namespace
