// tokenscope-cli end to end: a tiny model run, then every reading command on it.
// Expected numbers come from the workload spec (kernels::DecodePlanner) and from
// the definitions in docs/, not from the CLI's own output.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <string>

#include "kernels/decode_planner.h"
#include "kernels/model_shape.h"
#include "support/fixtures.h"

namespace {

namespace fs = std::filesystem;

struct Result {
    int status = -1;
    std::string out, err;
};

class Cli : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_cli_test_" + std::to_string(getpid()));
        fs::create_directories(dir_);
        run_file_ = (dir_ / "tiny.tokenscope").string();
        Result r =
            cli("run --backend model --preset tiny --gpu H100-SXM5 --batch 2 --prompt 16 "
                "--tokens 8 --seed 3 --quiet --progress none --out " +
                run_file_);
        ASSERT_EQ(r.status, 0) << r.err;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static Result cli(const std::string& args) {
        Result r;
        const std::string err_file = (dir_ / "stderr.txt").string();
        const std::string command = std::string(TOKENSCOPE_CLI) + " " + args + " 2>" + err_file;
        FILE* pipe = popen(command.c_str(), "r");
        if (!pipe) return r;
        std::array<char, 4096> buf;
        std::size_t n;
        while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
        int raw = pclose(pipe);
        r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
        std::ifstream in(err_file);
        std::stringstream ss;
        ss << in.rdbuf();
        r.err = ss.str();
        return r;
    }
    static nlohmann::json json_of(const std::string& args) {
        Result r = cli(args);
        EXPECT_EQ(r.status, 0) << args << ": " << r.err;
        return nlohmann::json::parse(r.out);
    }

    static fs::path dir_;
    static std::string run_file_;
};

fs::path Cli::dir_;
std::string Cli::run_file_;

// Kernels the tiny decode launches: the planner's list summed over its iterations.
std::size_t spec_kernels() {
    tokenscope::kernels::DecodeConfig d;
    d.batch = 2;
    d.prompt_len = 16;
    d.new_tokens = 8;
    d.seed = 3;
    tokenscope::kernels::DecodePlanner planner(*tokenscope::kernels::find_model_preset("tiny"), d);
    std::size_t n = 0;
    for (std::int64_t i = 0; i < planner.iteration_count(); ++i)
        n += planner.iteration(i).kernels.size();
    return n;
}

TEST_F(Cli, InfoCountsMatchTheWorkloadSpec) {
    auto j = json_of("info --progress none --json " + run_file_);
    ASSERT_EQ(j["runs"].size(), 1u);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["source"], "model");
    EXPECT_TRUE(run["is_model"].get<bool>());
    EXPECT_EQ(run["steps"], 16);  // 2 requests x 8 tokens
    EXPECT_EQ(run["requests"], 2);
    EXPECT_EQ(run["activities"]["kernel"].get<std::size_t>(), spec_kernels());
    // One H2D (token ids) and one D2H (sampled ids) per iteration: 8 iterations.
    EXPECT_EQ(run["copies"]["h2d"], 8);
    EXPECT_EQ(run["copies"]["d2h"], 8);
}

TEST_F(Cli, StatsFollowDesignSectionFour) {
    auto j = json_of("stats --progress none --json " + run_file_);
    const auto& m = j["runs"][0]["metrics"];
    for (const char* key : {"ttft", "tpot", "itl", "e2e", "step"})
        for (const char* stat : {"count", "mean", "std", "min", "p50", "p90", "p95", "p99", "max"})
            EXPECT_TRUE(m[key].contains(stat)) << key << "." << stat;
    EXPECT_EQ(m["ttft"]["count"], 2);
    EXPECT_EQ(m["itl"]["count"], 14);  // 2 requests x (8 - 1) gaps
    EXPECT_EQ(m["step"]["count"], 16);
    EXPECT_GT(m["itl"]["min"].get<double>(), 0.0);
    EXPECT_LE(m["itl"]["p50"].get<double>(), m["itl"]["p99"].get<double>());
}

TEST_F(Cli, BreakdownPartsSumToTheStepTime) {
    auto j = json_of("breakdown --progress none --json " + run_file_);
    const auto& run = j["runs"][0];
    std::int64_t sum = 0;
    for (const char* c : {"gpu_compute", "gpu_memory", "nvlink", "pcie", "cpu", "scheduling"})
        sum += run["assigned_ns"][c].get<std::int64_t>();
    EXPECT_EQ(sum, run["total_ns"].get<std::int64_t>());
    EXPECT_EQ(run["verdict"]["rules"].size(), 6u);
}

TEST_F(Cli, HeatmapCsvHasOneRowPerPhase) {
    Result r = cli("heatmap --progress none --rows phase --window 4steps --csv " + run_file_);
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream in(r.out);
    std::string header, prefill, decode, extra;
    std::getline(in, header);
    std::getline(in, prefill);
    std::getline(in, decode);
    EXPECT_EQ(header.rfind("row,", 0), 0u) << header;
    EXPECT_EQ(prefill.rfind("prefill,", 0), 0u) << prefill;
    EXPECT_EQ(decode.rfind("decode,", 0), 0u) << decode;
    EXPECT_FALSE(std::getline(in, extra) && !extra.empty()) << extra;
}

TEST_F(Cli, DiffOfARunWithItselfIsNotSignificant) {
    auto j = json_of("diff --progress none --json " + run_file_ + " " + run_file_);
    EXPECT_FALSE(j["metrics"]["itl"]["significant"].get<bool>());
    EXPECT_EQ(j["metrics"]["itl"]["mean"]["delta"].get<double>(), 0.0);
    EXPECT_EQ(j["steps_aligned"], 16);
}

TEST_F(Cli, BadInputGivesOneLineNamingTheFile) {
    const std::string noise = (dir_ / "noise.bin").string();
    {
        std::ofstream out(noise, std::ios::binary);
        for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 7919) & 0xff));
    }
    Result r = cli("stats --progress none " + noise);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("noise.bin"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not a recognised trace format"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

    Result missing = cli("info --progress none " + (dir_ / "absent.tokenscope").string());
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.err.find("absent.tokenscope"), std::string::npos) << missing.err;

    EXPECT_EQ(cli("frobnicate").status, 1);
    EXPECT_EQ(cli("heatmap --window 0steps " + run_file_).status, 1);
}

// diff opens A and B on two threads: whichever fails is named, and when both do, A is
// (as if they were opened in order); a good pair still compares.
TEST_F(Cli, DiffNamesTheFileThatFailsWhenBothOpenAtOnce) {
    const std::string noise = (dir_ / "diff_noise.bin").string();
    {
        std::ofstream out(noise, std::ios::binary);
        for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 7919) & 0xff));
    }
    const std::string absent = (dir_ / "diff_absent.json").string();
    for (const std::string& args : {run_file_ + " " + noise, noise + " " + run_file_,
                                    noise + " " + absent, absent + " " + noise}) {
        Result r = cli("diff --progress none " + args);
        const std::string first = args.substr(0, args.find(' '));
        EXPECT_EQ(r.status, 1) << args;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        const std::string failing = first == run_file_ ? noise : first;
        EXPECT_NE(r.err.find(fs::path(failing).filename().string()), std::string::npos)
            << args << ": " << r.err;
    }
    EXPECT_EQ(cli("diff --progress none " + run_file_ + " " + run_file_).status, 0);
}

TEST_F(Cli, GpuBackendsWithoutADriverExitThree) {
    if (void* h = dlopen("libcuda.so.1", RTLD_NOW)) {
        dlclose(h);
        GTEST_SKIP() << "an NVIDIA driver is present; this checks the no-driver path";
    }
    Result r = cli("run --backend cuda --preset tiny --out " + (dir_ / "cuda.tokenscope").string());
    EXPECT_EQ(r.status, 3);
    EXPECT_NE(r.err.find("no NVIDIA driver found"), std::string::npos) << r.err;
    Result c = cli("capture --out " + (dir_ / "cap.tokenscope").string() + " -- /bin/true");
    EXPECT_EQ(c.status, 3);
}

// The minimal Kineto fixture: 4 kernels, each with grid and block args (README).
TEST_F(Cli, InfoCountsKernelLaunchesOfAnImportedTrace) {
    const std::string trace = TOKENSCOPE_FIXTURES_DIR "/kineto/hta_inference_rank_1.json.gz";
    TOKENSCOPE_NEED_FIXTURE_FILE(trace);
    auto j = json_of("info --progress none --json " + trace);
    ASSERT_EQ(j["runs"].size(), 1u);
    EXPECT_EQ(j["runs"][0]["kernel_launches"], 4);
    EXPECT_EQ(json_of("info --progress none --json " + run_file_)["runs"][0]["kernel_launches"], 0);
}

}  // namespace
