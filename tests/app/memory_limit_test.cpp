// The importers' memory budget (docs/hostile-input.md, Opening a file), through the real
// tokenscope-cli: a file whose working set exceeds TOKENSCOPE_MEMORY_LIMIT is
// refused with one line naming the file, its size and the limit, before the
// allocations that would exhaust memory; the same file opens without the cap.
// Files are written here; expected sizes and counts are computed from them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "../import/nsys_test_db.h"
#include "cli_process.h"

namespace {

namespace fs = std::filesystem;
using tokenscope::test::CliResult;

class MemoryLimit : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("tokenscope_memory_test_" + std::to_string(getpid()));
        fs::create_directories(dir_);
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static std::string write(const std::string& name, const std::string& text) {
        std::string path = (dir_ / name).string();
        std::ofstream(path, std::ios::binary) << text;
        return path;
    }
    static CliResult read(const std::string& command, const std::string& path,
                          const std::string& limit) {
        return tokenscope::test::run_cli(command + " " + path + " --json --progress none",
                                         limit.empty() ? "" : "TOKENSCOPE_MEMORY_LIMIT=" + limit);
    }
    // Refused under `limit`: exit status 1, one line naming the file and the
    // limit; opens with status 0 without it. Returns the error line.
    static std::string refused(const std::string& path, const std::string& limit,
                               const std::string& limit_text,
                               const std::string& command = "stats") {
        CliResult ok = read(command, path, "");
        EXPECT_EQ(ok.status, 0) << ok.err;
        CliResult r = read(command, path, limit);
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(fs::path(path).filename().string()), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("needs about"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("more than the " + limit_text), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("TOKENSCOPE_MEMORY_LIMIT"), std::string::npos) << r.err;
        return r.err;
    }
    // The file's size as the message writes it: one decimal under 10 MiB.
    static std::string mib(const std::string& path) {
        double m = static_cast<double>(fs::file_size(path)) / (1 << 20);
        char buf[32];
        std::snprintf(buf, sizeof buf, m < 10 ? "%.1f MiB" : "%.0f MiB", m);
        return buf;
    }

    static fs::path dir_;
};

fs::path MemoryLimit::dir_;

// A vLLM bench result is parsed whole: refused from its size before it is read.
TEST_F(MemoryLimit, ServingResultLargerThanTheBudgetIsRefusedBeforeReading) {
    std::string ttfts, itls, lens, errors;
    for (int i = 0; i < 60'000; ++i) {
        std::string sep = i == 0 ? "" : ",";
        ttfts += sep + "0.0" + std::to_string(100 + i % 900);
        itls += sep + "[0.01,0.02]";
        lens += sep + "8";
        errors += sep + "\"\"";
    }
    std::string path = write("big_serving.json",
                             "{\"backend\":\"vllm\",\"model_id\":\"m\",\"ttfts\":[" + ttfts +
                                 "],\"itls\":[" + itls + "],\"input_lens\":[" + lens +
                                 "],\"output_lens\":[" + lens + "],\"errors\":[" + errors + "]}");
    ASSERT_GT(fs::file_size(path), std::uintmax_t{1} << 20);
    std::string err = refused(path, "2M", "2.0 MiB");
    EXPECT_NE(err.find("a " + mib(path) + " JSON document"), std::string::npos) << err;
}

// AIPerf records are streamed, but each request stays: refused as the run grows.
TEST_F(MemoryLimit, AiperfRecordsAreRefusedAsTheRunOutgrowsTheBudget) {
    std::string text;
    for (int i = 0; i < 20'000; ++i)
        text += "{\"metadata\":{\"session_num\":" + std::to_string(i) +
                ",\"request_start_ns\":" + std::to_string(1'759'813'207'532'900'363LL + i) +
                ",\"benchmark_phase\":\"profiling\"},\"metrics\":{\"time_to_first_token\":"
                "{\"value\":30.5,\"unit\":\"ms\"},\"inter_chunk_latency\":{\"value\":[5,5,5,5,5,"
                "5,5,5],\"unit\":\"ms\"}},\"error\":null}\n";
    std::string path = write("big_profile_export.jsonl", text);
    std::string err = refused(path, "1M", "1.0 MiB");
    EXPECT_NE(err.find("this " + mib(path) + " AIPerf export, at line "), std::string::npos) << err;
}

// A Kineto trace is streamed; its events accumulate as activities.
TEST_F(MemoryLimit, KinetoTraceIsRefusedAsItsEventsOutgrowTheBudget) {
    std::string events;
    for (int i = 0; i < 40'000; ++i)
        events += std::string(i == 0 ? "" : ",\n") +
                  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm_kernel\",\"pid\":0,\"tid\":7,"
                  "\"ts\":" +
                  std::to_string(1000 + i * 10) +
                  ",\"dur\":5,\"args\":{\"device\":0,\"stream\":7}}";
    std::string path =
        write("big.pt.trace.json", "{\"schemaVersion\":1,\"traceEvents\":[\n" + events + "\n]}\n");
    std::string err = refused(path, "1M", "1.0 MiB");
    EXPECT_NE(err.find("this " + mib(path) + " Kineto trace, "), std::string::npos) << err;
}

// Every row of an Nsight Systems export becomes an activity: refused from the
// row count before any row is read.
TEST_F(MemoryLimit, NsysExportIsRefusedFromItsRowCount) {
    std::string path = (dir_ / "big.sqlite").string();
    constexpr int kRows = 100'000;
    {
        tokenscope::import::testing::TestDb db(path);
        db.create_modern_schema();
        db.exec("INSERT INTO StringIds VALUES(1, 'gemm');");
        db.exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
                std::to_string(kRows) +
                ") INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT i * 100, i * 100 + 50, 0, 7, i, "
                "1 << 24, 1, 1, 1, 1 FROM n;");
    }
    // 100,000 rows of 40-byte activities, twice while sorted: 7.6 MiB.
    std::string err = refused(path, "4M", "4.0 MiB");
    EXPECT_NE(err.find(std::to_string(kRows) + " rows"), std::string::npos) << err;
}

// A .tokenscope run is loaded whole into memory for a command that reads its activities
// in memory (breakdown's slowest tokens; stats and breakdown itself read a summarised run
// without loading its activities: summarised_cli_test): refused from its counts.
TEST_F(MemoryLimit, TokenscopeRunLargerThanTheBudgetIsRefused) {
    std::string path = (dir_ / "model.tokenscope").string();
    CliResult made = tokenscope::test::run_cli(
        "run --backend model --preset tiny --batch 2 --tokens 64 --quiet --progress none --out " +
        path);
    ASSERT_EQ(made.status, 0) << made.err;
    std::string err = refused(path, "16K", "16 KiB", "breakdown --by-token");
    EXPECT_NE(err.find("run 1 ("), std::string::npos) << err;
}

TEST_F(MemoryLimit, AMalformedLimitIsIgnored) {
    std::string path =
        write("small_serving.json",
              "{\"backend\":\"vllm\",\"model_id\":\"m\",\"ttfts\":[0.1],"
              "\"itls\":[[]],\"input_lens\":[8],\"output_lens\":[1],\"errors\":[\"\"]}");
    EXPECT_EQ(read("stats", path, "lots").status, 0);
    EXPECT_EQ(read("stats", path, "1G").status, 0);
}

}  // namespace
