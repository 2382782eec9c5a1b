// stats --slowest N and breakdown --by-token through the real tokenscope-cli, on a
// hand-made joined run (tests/joined_hand_run.h) written with the store writer: the
// report names the iteration planted slow, with its batch, share and kernel.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "../joined_hand_run.h"
#include "cli_process.h"
#include "store/store_writer.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using H = tokenscope::test::JoinedHandRun;

class SlowTokensCli : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_slow_tokens_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        file_ = (dir_ / "joined.tokenscope").string();
        tokenscope::store::StoreWriter(file_).write_run(tokenscope::test::joined_hand_run());
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }
    // A wide terminal, so the table's cells are not wrapped to fit.
    static tokenscope::test::CliResult cli(const std::string& args) {
        return tokenscope::test::run_cli(args + " --progress none", "COLUMNS=250");
    }
    static json first_run(const std::string& args) {
        auto r = cli(args + " --json");
        EXPECT_EQ(r.status, 0) << r.err;
        json j = json::parse(r.out, nullptr, false);
        if (j.is_discarded() || j["runs"].empty()) return json::object();
        return j["runs"][0];
    }
    static inline fs::path dir_;
    static inline std::string file_;
};

TEST_F(SlowTokensCli, StatsSlowestNamesThePlantedIteration) {
    auto r = cli("stats " + file_ + " --slowest 3");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("token 5 of request 1: 60.000 ms; iteration 4707, prefill 6 req 8192 tok, "
                         "decode 4 req 4 tok, 60% gpu_compute in flash_fwd_kernel"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("token 5 of request 3: 60.000 ms; iteration 4707"), std::string::npos);
    EXPECT_EQ(r.out.find("of request 4:"), std::string::npos) << "only 3 asked for";
    // The table: short kernel names with their time in the iteration.
    EXPECT_NE(r.out.find("flash_fwd_kernel 36.000 ms, rms_norm_kernel 6.000 ms"), std::string::npos)
        << r.out;
}

TEST_F(SlowTokensCli, StatsSlowestJson) {
    const json run = first_run("stats " + file_ + " --slowest 5");
    ASSERT_TRUE(run.contains("slowest_tokens")) << run.dump();
    const json& slow = run["slowest_tokens"];
    ASSERT_EQ(slow.size(), 5u);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(slow[i]["request"], i + 1);
        EXPECT_EQ(slow[i]["index"], H::kSlow);
        EXPECT_EQ(slow[i]["itl_ns"], H::kSlowNs);
        EXPECT_EQ(slow[i]["iteration"], H::kSlowNumber);
        EXPECT_EQ(slow[i]["batch"]["prefill_tokens"], 8192);
        EXPECT_EQ(slow[i]["dominant"]["category"], "gpu_compute");
        EXPECT_DOUBLE_EQ(slow[i]["dominant"]["share"].get<double>(), 0.6);
        EXPECT_EQ(slow[i]["assigned_ns"]["scheduling"], 18 * H::kMs);
        EXPECT_EQ(slow[i]["top_kernels"][0]["name"], H::kFlash);
        EXPECT_EQ(slow[i]["top_kernels"][0]["short_name"], "flash_fwd_kernel");
        EXPECT_EQ(slow[i]["top_kernels"][0]["time_ns"], 36 * H::kMs);
    }
    EXPECT_EQ(slow[4]["itl_ns"], H::kNormalNs);
    EXPECT_NE(slow[4]["iteration"], H::kSlowNumber);
    // Without --slowest the JSON is as before.
    EXPECT_FALSE(first_run("stats " + file_).contains("slowest_tokens"));
}

TEST_F(SlowTokensCli, BreakdownByTokenListsCategoriesOfTheIteration) {
    auto r = cli("breakdown " + file_ + " --by-token --slowest 2 --csv");
    ASSERT_EQ(r.status, 0) << r.err;
    // CSV row of the slowest token: request, token, ITL, iteration, its length, batch,
    // dominant, share, then the six categories in ms.
    EXPECT_NE(r.out.find("1,5,60.000,4707,60.000,\"prefill 6 req 8192 tok, decode 4 req 4 tok\","
                         "gpu_compute,60.0%,36.000,6.000,0.000,0.000,0.000,18.000"),
              std::string::npos)
        << r.out;
    const json run = first_run("breakdown " + file_ + " --by-token");
    ASSERT_TRUE(run.contains("slowest_tokens"));
    EXPECT_EQ(run["slowest_tokens"].size(), 20u);  // the default: 20 of the 36 with an ITL
    EXPECT_EQ(run["slowest_tokens"][0]["iteration"], H::kSlowNumber);
}

TEST_F(SlowTokensCli, NegativeCountIsAUsageError) {
    auto r = cli("stats " + file_ + " --slowest -1");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("--slowest"), std::string::npos) << r.err;
}

}  // namespace
