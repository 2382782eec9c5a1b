// Replays every input the fuzzers ever found (tests/fuzz/regressions/<target>/)
// through the same code as the fuzz target, in the ordinary build: each must
// end cleanly (imported, or a FileError naming the file) and quickly.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../fuzz/fuzz_cases.h"

namespace tokenscope::fuzz {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

TEST(FuzzRegressions, EveryKeptInputEndsCleanly) {
    fs::path root = fs::path(TOKENSCOPE_SOURCE_DIR) / "tests/fuzz/regressions";
    ASSERT_TRUE(fs::is_directory(root)) << root;
    int replayed = 0;
    for (const auto& dir : fs::directory_iterator(root)) {
        std::string target = dir.path().filename().string();
        auto it = cases().find(target);
        ASSERT_NE(it, cases().end()) << "no fuzz case named " << target;
        for (const auto& input : fs::directory_iterator(dir.path())) {
            SCOPED_TRACE(input.path().string());
            std::string bytes = read_file(input.path());
            auto t0 = std::chrono::steady_clock::now();
            EXPECT_NO_THROW(it->second(bytes));
            auto s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            EXPECT_LT(s, 10.0) << "slower than the fuzzers' -timeout";
            ++replayed;
        }
    }
    EXPECT_GT(replayed, 0);
}

}  // namespace
}  // namespace tokenscope::fuzz
