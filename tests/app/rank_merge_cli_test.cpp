// `tokenscope-cli import RANK0 RANK1 --merge --out F` and `breakdown --ranks` as a user
// runs them, on two per-rank Kineto traces written here (tests/support/rank_kineto.h:
// rank 1 reaches the all-reduce 300 us late in even steps, 2 us after its gemm ends).
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_process.h"
#include "store/store_reader.h"
#include "support/rank_kineto.h"

namespace {

using namespace tokenscope::test::rank_kineto;
using tokenscope::test::run_shell;

// A directory of this test's own, removed with its files.
struct Dir {
    std::filesystem::path path;
    explicit Dir(const std::string& prefix) {
        std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
        path = mkdtemp(tmpl.data());
    }
    ~Dir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
    std::string write(const std::string& name, const std::string& bytes) const {
        std::ofstream(file(name), std::ios::binary) << bytes;
        return file(name);
    }
};

std::string cli() {
    return TOKENSCOPE_CLI;
}

TEST(RankMergeCli, MergesTwoRanksAndNamesTheStraggler) {
    Dir dir("rank-merge-cli");
    // No base times: the clocks are aligned by the all-reduce ends (skew 3.217654 ms).
    const std::string r0 = dir.write("rank0.json", rank_file(0, kT0, false));
    const std::string r1 = dir.write("rank1.json", rank_file(1, kT0 - 3'217'654, false));
    const std::string out = dir.file("merged.tokenscope");
    auto imp =
        run_shell(cli() + " import " + r1 + " " + r0 + " --merge --progress none --out " + out);
    ASSERT_EQ(imp.status, 0) << imp.err;
    EXPECT_NE(imp.out.find("imported 1 run of 2 ranks"), std::string::npos) << imp.out;
    EXPECT_NE(imp.out.find("rank 1 (rank1): -3217654 ns added"), std::string::npos) << imp.out;

    tokenscope::store::StoreReader reader(out);
    ASSERT_EQ(reader.runs().size(), 1u);
    auto run = reader.load_run(reader.runs()[0].info.id);
    std::set<std::int32_t> ranks;
    for (const auto& l : run.lanes) ranks.insert(l.rank);
    EXPECT_EQ(ranks, (std::set<std::int32_t>{0, 1}));
    EXPECT_EQ(run.steps.size(), static_cast<std::size_t>(kSteps));

    auto bd = run_shell(cli() + " breakdown " + out + " --ranks --json --progress none");
    ASSERT_EQ(bd.status, 0) << bd.err;
    const auto j = nlohmann::json::parse(bd.out)["runs"][0]["ranks"];
    EXPECT_EQ(j["ranks"], nlohmann::json::array({0, 1}));
    ASSERT_EQ(j["steps"].size(), static_cast<std::size_t>(kSteps));
    for (int k = 0; k < kSteps; ++k) {
        const auto& s = j["steps"][static_cast<std::size_t>(k)];
        EXPECT_EQ(s["basis"], "collectives");
        if (k % 2 == 0) {  // within the 1 us the clock fit may be off
            EXPECT_EQ(s["straggler"], 1) << k;
            EXPECT_NEAR(s["lateness_ns"].get<double>(), 300'000.0, 1000.0) << k;
        } else {
            EXPECT_LT(s["lateness_ns"].get<double>(), 1000.0) << k;
        }
        // No kernel runs beside the all-reduce: nothing of it overlaps computation.
        EXPECT_EQ(s["ranks"][0]["overlap_ns"], 0);
        // Rank 0's all-reduce: from its arrival (gemm end + 2 us) to the common end.
        EXPECT_EQ(s["ranks"][0]["comm_ns"], nccl_end(k) - gemm_end(0, k) - 2'000);
    }

    auto text = run_shell(cli() + " breakdown " + out + " --ranks --progress none");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("straggler per step: rank 1 in 5 of 10"), std::string::npos)
        << text.out;
}

TEST(RankMergeCli, OneInputOrNothingToAlignIsAClearError) {
    Dir dir("rank-merge-cli-bad");
    const std::string r0 = dir.write("rank0.json", rank_file(0, kT0, false));
    auto one = run_shell(cli() + " import " + r0 + " --merge --out " + dir.file("o.tokenscope"));
    EXPECT_EQ(one.status, 1) << one.err;
    EXPECT_NE(one.err.find("two or more inputs"), std::string::npos) << one.err;
    // A file with no collective and no start time: the error names it.
    const std::string bare = dir.write(
        "bare.json", R"({"traceEvents": [{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,)"
                     R"("ts":1.0,"dur":2.0}]})");
    auto bad = run_shell(cli() + " import " + r0 + " " + bare + " --merge --progress none --out " +
                         dir.file("o.tokenscope"));
    EXPECT_EQ(bad.status, 1) << bad.err;
    EXPECT_NE(bad.err.find("(bare)"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("align"), std::string::npos) << bad.err;
}

}  // namespace
