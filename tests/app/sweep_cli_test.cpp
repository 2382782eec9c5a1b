// tokenscope-cli sweep and sweep-report end to end, through the built binary.
// Expected values come from the grid syntax, docs/sweeps.md and hand-made
// benchmark files, never from the CLI's own output.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "cli_process.h"
#include "support/temp_dir.h"

namespace {

namespace fs = std::filesystem;

using Result = tokenscope::test::CliResult;

// One directory for the test program, removed when it exits.
fs::path temp_dir() {
    static const tokenscope::test::TempDir dir("tokenscope-sweep");
    return dir.path();
}

Result cli(const std::string& args) {
    return tokenscope::test::run_cli(args);
}

std::vector<nlohmann::json> json_lines(const std::string& out, const char* key) {
    std::vector<nlohmann::json> lines;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_object() && j.contains(key)) lines.push_back(j[key]);
    }
    return lines;
}

nlohmann::json report(const std::string& args) {
    Result r = cli("sweep-report --json " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
}

TEST(SweepCli, GridRepeatsAndWarmupsAreCounted) {
    const std::string file = (temp_dir() / "grid.tokenscope").string();
    Result r = cli("sweep --out " + file +
                   " --preset tiny --batch 1,2 --prompt 16:64:x2 --tokens 4 --warmup 1 "
                   "--repeats 2 --progress json");
    ASSERT_EQ(r.status, 0) << r.err;
    auto runs = json_lines(r.out, "sweep");
    std::size_t warm = 0, counted = 0;
    for (const auto& j : runs) (j["warmup"].get<bool>() ? warm : counted)++;
    // 2 batches x 3 prompts (16, 32, 64) = 6 points; 1 warm-up and 2 repeats each.
    EXPECT_EQ(warm, 6u);
    EXPECT_EQ(counted, 12u);
    auto j = report(file);
    ASSERT_EQ(j["points"].size(), 6u);
    std::set<std::pair<int, int>> seen;
    for (const auto& p : j["points"]) {
        EXPECT_EQ(p["run_ids"].size(), 2u);
        seen.insert({p["params"]["batch"].get<int>(), p["params"]["prompt"].get<int>()});
    }
    EXPECT_EQ(seen, (std::set<std::pair<int, int>>{
                        {1, 16}, {1, 32}, {1, 64}, {2, 16}, {2, 32}, {2, 64}}));
    EXPECT_TRUE(j["is_model"].get<bool>());
    EXPECT_EQ(j["axes"], nlohmann::json({"batch", "prompt"}));
}

// Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian); 0 if not a PNG.
std::pair<std::uint32_t, std::uint32_t> png_size(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    unsigned char b[24] = {};
    in.read(reinterpret_cast<char*>(b), sizeof b);
    if (in.gcount() != 24 || b[1] != 'P' || b[2] != 'N' || b[3] != 'G') return {0, 0};
    auto be = [&](int i) {
        return (std::uint32_t{b[i]} << 24) | (std::uint32_t{b[i + 1]} << 16) |
               (std::uint32_t{b[i + 2]} << 8) | b[i + 3];
    };
    return {be(16), be(20)};
}

TEST(SweepCli, ImagesOfTheGridParetoAndKnee) {
    const std::string file = (temp_dir() / "images.tokenscope").string();
    ASSERT_EQ(cli("sweep --out " + file +
                  " --preset tiny --batch 1,2 --prompt 8,16 --tokens 4 --warmup 0 --repeats 1 "
                  "--progress none")
                  .status,
              0);
    const auto dir = temp_dir();
    Result r = cli("sweep-report " + file + " --sla-ttft 1s --x prompt --grid " +
                   (dir / "g.png").string() + " --pareto " + (dir / "p.png").string() + " --knee " +
                   (dir / "k.png").string() + " --size 800x600");
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* name : {"g.png", "p.png", "k.png"})
        EXPECT_EQ(png_size(dir / name), (std::pair<std::uint32_t, std::uint32_t>{800, 600}))
            << name;
    const std::string qps = (temp_dir() / "images_qps.tokenscope").string();
    ASSERT_EQ(cli("sweep --out " + qps +
                  " --preset tiny --qps 1,2 --duration 1s --prompt 8 --tokens 4 --warmup 0 "
                  "--repeats 1 --progress none")
                  .status,
              0);
    Result e = cli("sweep-report " + qps + " --grid " + (dir / "none.png").string());
    EXPECT_EQ(e.status, 1);
    EXPECT_NE(e.err.find("no batch and prompt axes"), std::string::npos) << e.err;
}

TEST(SweepCli, AdditiveRangesAndBadGridsAreUsageErrors) {
    const std::string file = (temp_dir() / "qps.tokenscope").string();
    Result r = cli("sweep --out " + file +
                   " --preset tiny --qps 1:7:+3 --duration 1s --prompt 8 --tokens 4 --warmup 0 "
                   "--repeats 1 --progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = report(file);
    std::vector<double> qps;
    for (const auto& p : j["points"]) qps.push_back(p["params"]["qps"].get<double>());
    EXPECT_EQ(qps, (std::vector<double>{1, 4, 7}));
    for (const char* bad : {"--batch 8:1:x2", "--batch 1:8:x1", "--batch 1,,2", "--qps 1:5:-1",
                            "--strategy beam:x", "--batch 0", "--backend cpu --preset llama-8b"}) {
        Result e = cli("sweep --out " + (temp_dir() / "bad.tokenscope").string() +
                       " --preset tiny --progress none " + bad);
        EXPECT_EQ(e.status, 1) << bad << ": " << e.err;
        EXPECT_NE(e.err.find("sweep"), std::string::npos) << e.err;
        EXPECT_FALSE(fs::exists(temp_dir() / "bad.tokenscope")) << bad << ": file touched";
    }
}

// Starts the sweep as a child and kills it with SIGKILL once `after` runs are stored.
std::string killed_sweep(const std::string& file, const std::string& args, int after) {
    const std::string out_file = (temp_dir() / "killed.out").string();
    pid_t pid = fork();
    if (pid == 0) {
        const std::string cmd = std::string(TOKENSCOPE_CLI) + " sweep --out " + file + " " + args +
                                " --progress json > " + out_file + " 2>/dev/null";
        execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), nullptr);
        _exit(127);
    }
    std::string text;
    for (int i = 0; i < 600; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ifstream in(out_file);
        std::stringstream ss;
        ss << in.rdbuf();
        text = ss.str();
        std::size_t stored = 0;
        for (const auto& j : json_lines(text, "sweep")) stored += j["warmup"].get<bool>() ? 0 : 1;
        if (stored >= static_cast<std::size_t>(after)) break;
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status));
    return text;
}

TEST(SweepCli, ResumeAfterSigkillDoesNotRedoWrittenPoints) {
    const std::string file = (temp_dir() / "resume.tokenscope").string();
    const std::string args =
        "--preset llama-1b --qps 2:20:+2 --duration 20s --prompt 256 --tokens 32 --warmup 0 "
        "--repeats 2";
    std::string before = killed_sweep(file, args, 3);
    std::set<std::pair<int, int>> written;
    for (const auto& j : json_lines(before, "sweep"))
        written.insert({j["point"].get<int>(), j["repeat"].get<int>()});
    ASSERT_GE(written.size(), 3u);
    ASSERT_LT(written.size(), 20u) << "the sweep finished before it was killed";
    Result r = cli("sweep --resume --out " + file + " --progress json");
    ASSERT_EQ(r.status, 0) << r.err;
    auto redo = json_lines(r.out, "sweep");
    std::set<std::pair<int, int>> again;
    for (const auto& j : redo) {
        std::pair<int, int> key{j["point"].get<int>(), j["repeat"].get<int>()};
        EXPECT_FALSE(written.contains(key))
            << "redid point " << key.first << " repeat " << key.second;
        again.insert(key);
    }
    EXPECT_EQ(written.size() + again.size(), 20u);  // 10 rates x 2 repeats, each once
    auto j = report(file);
    ASSERT_EQ(j["points"].size(), 10u);
    for (const auto& p : j["points"]) EXPECT_EQ(p["run_ids"].size(), 2u);
}

TEST(SweepCli, CtrlCKeepsFinishedRuns) {
    const std::string file = (temp_dir() / "sigint.tokenscope").string();
    const std::string out_file = (temp_dir() / "sigint.out").string();
    pid_t pid = fork();
    if (pid == 0) {
        const std::string cmd = std::string(TOKENSCOPE_CLI) + " sweep --out " + file +
                                " --preset llama-1b --qps 5:50:+5 --duration 30s --warmup 0 "
                                "--repeats 1 --progress json > " +
                                out_file + " 2>/dev/null";
        execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), nullptr);
        _exit(127);
    }
    std::size_t stored = 0;
    for (int i = 0; i < 600 && stored < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ifstream in(out_file);
        std::stringstream ss;
        ss << in.rdbuf();
        stored = json_lines(ss.str(), "sweep").size();
    }
    kill(pid, SIGINT);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    auto j = report(file);
    EXPECT_GE(j["points"].size(), stored);
    EXPECT_LT(j["points"].size(), 10u);
}

// Three hand-made vLLM results at 1, 2 and 4 requests/s. TTFTs (s) and the SLA
// TTFT <= 300 ms, TPOT <= 50 ms decide each request by hand.
void write_result(const fs::path& path, double rate, const std::string& ttfts,
                  const std::string& itls, const std::string& errors,
                  const std::string& output_lens = "[3, 3, 3, 3]") {
    std::ofstream(path) << R"({"backend": "vllm", "model_id": "m", "request_rate": )" << rate
                        << R"(, "input_lens": [10, 10, 10, 10], "output_lens": )" << output_lens
                        << ","
                        << R"( "ttfts": )" << ttfts << R"(, "itls": )" << itls << R"(, "errors": )"
                        << errors << "}";
}

TEST(SweepCli, ServingBenchmarkResultsAreSweepPoints) {
    const auto dir = temp_dir();
    // rate 1: all three finished ones meet (TTFT 0.1-0.3 s, ITLs 40 ms); the 4th failed.
    write_result(dir / "r1.json", 1, "[0.1, 0.2, 0.3, 0]",
                 "[[0.04, 0.04], [0.04, 0.04], [0.04, 0.04], []]", R"(["", "", "", "boom"])",
                 "[3, 3, 3, 0]");
    // rate 2: TTFT 0.31 misses; TPOT (0.06 + 0.06) / 2 = 60 ms misses; two meet.
    write_result(dir / "r2.json", 2, "[0.31, 0.1, 0.2, 0.1]",
                 "[[0.01, 0.01], [0.06, 0.06], [0.01, 0.02], [0.01, 0.01]]", R"(["", "", "", ""])");
    // rate 4: everything misses TTFT.
    write_result(dir / "r4.json", 4, "[0.5, 0.6, 0.7, 0.8]",
                 "[[0.01, 0.01], [0.01, 0.01], [0.01, 0.01], [0.01, 0.01]]", R"(["", "", "", ""])");
    auto j = report((dir / "r1.json").string() + " " + (dir / "r2.json").string() + " " +
                    (dir / "r4.json").string() + " --sla-ttft 300ms --sla-tpot 50ms");
    ASSERT_EQ(j["points"].size(), 3u);
    std::map<double, double> attainment;
    for (const auto& p : j["points"])
        attainment[p["params"]["request_rate"].get<double>()] =
            p["median"]["attainment"].get<double>();
    EXPECT_DOUBLE_EQ(attainment[1], 3.0 / 4.0);
    EXPECT_DOUBLE_EQ(attainment[2], 2.0 / 4.0);
    EXPECT_DOUBLE_EQ(attainment[4], 0.0);
    EXPECT_EQ(j["curve"]["x"], "request_rate");
    EXPECT_FALSE(j["is_model"].get<bool>());
}

}  // namespace
