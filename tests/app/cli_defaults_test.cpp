// Defaults and text output a new user meets first, through the real binary:
// each backend runs its own default shape, a shape too big for a backend is a
// usage error (status 1, not an internal error), foreign traces get a heatmap
// with at least 8 windows, and text tables fit the terminal.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_process.h"
#include "hand_made_run.h"
#include "store/store_writer.h"
#include "support/fixtures.h"
#include "trace/run_data.h"
#include "trace/utf8.h"

namespace {

namespace fs = std::filesystem;
namespace trace = tokenscope::trace;

using Result = tokenscope::test::CliResult;

class CliDefaults : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_defaults_" + std::to_string(getpid()));
        fs::create_directories(dir_);
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static Result cli(const std::string& args, const std::string& env = {}) {
        return tokenscope::test::run_cli(args, env);
    }

    static fs::path dir_;
};

fs::path CliDefaults::dir_;

TEST_F(CliDefaults, CpuBackendRunsItsOwnDefaultShapeAndSaysSo) {
    const std::string out = (dir_ / "cpu.tokenscope").string();
    Result r =
        cli("run --backend cpu --tokens 4 --batch 1 --prompt 8 --quiet --progress none "
            "--out " +
            out);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("preset tiny"), std::string::npos) << r.err;
    Result info = cli("info " + out + " --json");
    ASSERT_EQ(info.status, 0) << info.err;
    auto j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["runs"][0]["source"], "cpu");
    EXPECT_NE(j["runs"][0]["name"].get<std::string>().find("tiny"), std::string::npos);
}

TEST_F(CliDefaults, ShapeTooBigForTheCpuBackendIsAUsageError) {
    const std::string out = (dir_ / "big.tokenscope").string();
    Result r = cli("run --backend cpu --preset llama-8b --tokens 16 --out " + out);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("llama-8b"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("--preset tiny"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(out)) << "a refused run must not leave a file";
}

// The HTA V100 trace has a handful of ProfilerStep iterations: 16-step windows
// would give one column.
TEST_F(CliDefaults, ForeignTraceHeatmapHasAtLeastEightWindows) {
    TOKENSCOPE_NEED_FIXTURE("kineto/hta_v100_ns_resolution_rank0.json.gz");
    Result r = cli(std::string("heatmap ") + TOKENSCOPE_FIXTURES_DIR +
                   "/kineto/hta_v100_ns_resolution_rank0.json.gz --json --progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    const auto& run = j["runs"][0];
    EXPECT_EQ(run["rows_by"], "kernel");
    EXPECT_GE(run["columns"].size(), 8u);
    EXPECT_GT(run["rows"].size(), 1u);
}

// A 3,000-character diagnostic (as real traces have) wraps inside the terminal
// width instead of one cell and a dashed rule as wide; --json keeps it whole.
TEST_F(CliDefaults, InfoTablesFitTheTerminalWidth) {
    trace::RunData run;
    run.info.name = "long diagnostic";
    run.info.source = trace::Source::Kineto;
    run.lanes.push_back({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
    std::string text;
    for (int i = 0; i < 300; ++i) text += "word" + std::to_string(i) + " ";
    text += "\x1b[31mred\x1b[0m \xff\xfe end";
    run.diagnostics.push_back({"long_note", trace::Severity::Info, 1.0, text});
    run.diagnostics.push_back({"megabyte", trace::Severity::Info, 2.0,
                               std::string(1 << 20, 'x') + "TAIL_OF_THE_MEGABYTE"});
    const std::string file = (dir_ / "long.tokenscope").string();
    tokenscope::store::StoreWriter(file).write_run(run);
    for (int columns : {80, 132}) {
        Result r = cli("info " + file, "COLUMNS=" + std::to_string(columns));
        ASSERT_EQ(r.status, 0) << r.err;
        std::istringstream lines(r.out);
        std::string line;
        bool saw_end = false;
        while (std::getline(lines, line)) {
            std::size_t width = 0;
            for (char c : line) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
            EXPECT_LE(width, static_cast<std::size_t>(columns)) << line;
            EXPECT_EQ(line.find('\x1b'), std::string::npos) << "raw escape reached the terminal";
            saw_end |= line.find("end") != std::string::npos;
        }
        EXPECT_TRUE(saw_end) << "the diagnostic was cut, not wrapped";
        // The megabyte shows its head and says how much more there is.
        EXPECT_LT(std::count(r.out.begin(), r.out.end(), '\n'), 400);
        // 1 MiB + 20 bytes, of which the first 4096 are shown.
        EXPECT_NE(r.out.find(std::to_string((1 << 20) + 20 - 4096)), std::string::npos);
        EXPECT_EQ(r.out.find("TAIL_OF_THE_MEGABYTE"), std::string::npos);
    }
    Result j = cli("info " + file + " --json");
    ASSERT_EQ(j.status, 0);
    EXPECT_NE(j.out.find("word299"), std::string::npos);
    EXPECT_NE(j.out.find("TAIL_OF_THE_MEGABYTE"), std::string::npos);
}

// A kernel row label longer than the table's 60 columns keeps its head and ends in
// "...", cut between characters: a name of two-byte characters cut at a byte count
// used to end in half a character, which the terminal shows as garbage.
TEST_F(CliDefaults, LongKernelRowLabelIsCutBetweenCharacters) {
    trace::RunData run = tokenscope::test::hand_run("utf8 kernel");
    std::string kappa;
    for (int i = 0; i < 100; ++i) kappa += "\xce\xba";  // U+03BA, two bytes each
    for (auto& a : run.activities)
        if (a.kind == trace::ActivityKind::Kernel) a.name = run.strings.intern("gemm" + kappa);
    const std::string file = (dir_ / "utf8_kernel.tokenscope").string();
    tokenscope::store::StoreWriter(file).write_run(run);
    Result r = cli("heatmap " + file + " --rows kernel --metric kernel --progress none");
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    bool saw_row = false;
    while (std::getline(lines, line)) {
        if (!line.starts_with("gemm")) continue;
        saw_row = true;
        const std::string label = line.substr(0, line.find("..."));
        EXPECT_NE(line.find("..."), std::string::npos) << line;
        // "gemm" and 53 kappas: 57 columns, then "..." (57 bytes would end mid-kappa).
        EXPECT_EQ(label, "gemm" + kappa.substr(0, 2 * 53)) << line;
        for (std::size_t i = 0; i < line.size();) {
            std::size_t n = trace::utf8_sequence_length(line, i);
            ASSERT_GT(n, 0u) << "invalid UTF-8 at byte " << i << ": " << line;
            i += n;
        }
    }
    EXPECT_TRUE(saw_row) << r.out;
}

}  // namespace
