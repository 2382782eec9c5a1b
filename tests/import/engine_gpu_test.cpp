// The GPU of the four real engine traces (fixtures/engines/), as the Kineto importer
// names it: from the deviceProperties name through the catalogue, or, where ROCm wrote
// no name (the vLLM V1 traces), inferred from gfx version, CU count and memory. The
// expected model is decided here from the fixture's own deviceProperties, read with
// zlib and nlohmann::json, and its figures are AMD's and NVIDIA's datasheet values.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "import/kineto/kineto_importer.h"
#include "import/nsys/nsys_importer.h"
#include "nsys_test_db.h"
#include "support/fixtures.h"
#include "support/gzip_file.h"

namespace {

using tokenscope::import::KinetoImporter;
using tokenscope::import::NsysImporter;
using tokenscope::import::testing::sql_int;

nlohmann::json read_gzip_json(const std::string& path) {
    return nlohmann::json::parse(tokenscope::test::gunzip(path));
}

struct Expected {
    const char* fixture;
    double bandwidth;  // bytes/s, datasheet
    double flops;      // dense BF16, datasheet
    int links;         // NVLink or xGMI
    double link_bandwidth;
};

// What the fixture says of device 0, and what model that makes it.
std::string expected_name(const nlohmann::json& device) {
    const std::string name = device.at("name").get<std::string>();
    if (!name.empty()) return name;
    // No name: an MI300-class GPU (gfx 9.4, 64-wide waves) with 304 CUs and ~192 GiB.
    EXPECT_EQ(device.at("warpSize").get<int>(), 64);
    EXPECT_EQ(device.at("computeMajor").get<int>(), 9);
    EXPECT_EQ(device.at("computeMinor").get<int>(), 4);
    EXPECT_EQ(device.at("numSms").get<int>(), 304);
    const double gib = device.at("totalGlobalMem").get<double>() / (1024.0 * 1024.0 * 1024.0);
    EXPECT_LT(gib, 224.0);  // an MI325X has 256
    return "AMD Instinct MI300X (inferred from 304 CUs, gfx9.4, " +
           std::to_string(std::llround(gib)) + " GiB)";
}

TEST(EngineGpuTest, EachEngineFixtureNamesItsGpuWithDatasheetFigures) {
    const Expected kTable[] = {
        {"engines/vllm_v1_mi300x_fullgraph_decode_bs32_step.json.gz", 5.3e12, 1307.4e12, 7, 896e9},
        {"engines/vllm_v1_mi300x_piecewise_mixed_step.json.gz", 5.3e12, 1307.4e12, 7, 896e9},
        {"engines/sglang_mi300x_qwen3_8b_graph_decode_bs32_step.json.gz", 5.3e12, 1307.4e12, 7,
         896e9},
        {"engines/hf_transformers_qwen1.5_0.5b_h100_forward_profilerstep.json.gz", 3.35e12, 989e12,
         18, 900e9},
    };
    for (const auto& row : kTable) {
        SCOPED_TRACE(row.fixture);
        TOKENSCOPE_NEED_FIXTURE(row.fixture);
        const std::string path = tokenscope::test::fixture_path(row.fixture);
        const nlohmann::json device = read_gzip_json(path).at("deviceProperties").at(0);
        const auto run = KinetoImporter().import(path, {}, {});
        const auto& gpu = run.info.gpu;
        EXPECT_EQ(gpu.name, expected_name(device));
        EXPECT_EQ(gpu.sm_count, device.at("numSms").get<int>());
        EXPECT_DOUBLE_EQ(gpu.peak_bandwidth, row.bandwidth);
        EXPECT_DOUBLE_EQ(gpu.peak_flops, row.flops);
        EXPECT_EQ(gpu.nvlink_links, row.links);
        EXPECT_DOUBLE_EQ(gpu.nvlink_bandwidth, row.link_bandwidth);
        EXPECT_EQ(gpu.pcie_generation, 5);
        EXPECT_EQ(gpu.pcie_width, 16);
    }
}

// An nsys export names its GPU in TARGET_INFO_GPU with its SM count and bandwidth; the
// catalogue adds what that table lacks (A100 SXM4: 312 TFLOP/s, 12 NVLink links).
TEST(EngineGpuTest, NsysExportGetsTheRestFromTheDatasheet) {
    const char* kFixture = "nsys/pipit_a100x4_cloverleaf.sqlite";
    TOKENSCOPE_NEED_FIXTURE(kFixture);
    const std::string path = tokenscope::test::fixture_path(kFixture);
    const auto gpu = NsysImporter().import(path, {}, {}).info.gpu;
    EXPECT_EQ(gpu.name, "NVIDIA A100-SXM4-80GB");
    const char* kFirst = " FROM TARGET_INFO_GPU ORDER BY id LIMIT 1";
    EXPECT_EQ(gpu.sm_count, sql_int(path, std::string("SELECT smCount") + kFirst));
    // The export's own bandwidth (2.03904 TB/s) stays; the datasheet says 2.039.
    EXPECT_DOUBLE_EQ(
        gpu.peak_bandwidth,
        static_cast<double>(sql_int(path, std::string("SELECT memoryBandwidth") + kFirst)));
    EXPECT_DOUBLE_EQ(gpu.peak_flops, 312e12);
    EXPECT_EQ(gpu.pcie_generation, 4);
    EXPECT_EQ(gpu.nvlink_links, 12);
    EXPECT_DOUBLE_EQ(gpu.nvlink_bandwidth, 600e9);
}

}  // namespace
