// The import memory budget's parts: byte sizes as TOKENSCOPE_MEMORY_LIMIT
// writes them, the limit it sets and the message of a refusal.
#include <gtest/gtest.h>

#include <cstdlib>

#include "trace/file_error.h"
#include "trace/memory_budget.h"
#include "trace/run_data.h"

namespace tokenscope::trace {
namespace {

TEST(MemoryBudget, ParsesByteSizesInBinaryUnits) {
    EXPECT_EQ(parse_byte_size("1048576"), 1048576u);
    EXPECT_EQ(parse_byte_size("512M"), 512u << 20);
    EXPECT_EQ(parse_byte_size("2G"), std::uint64_t{2} << 30);
    EXPECT_EQ(parse_byte_size("16KiB"), 16u << 10);
    EXPECT_EQ(parse_byte_size("3GB"), std::uint64_t{3} << 30);
    EXPECT_EQ(parse_byte_size("1T"), std::uint64_t{1} << 40);
    EXPECT_FALSE(parse_byte_size(""));
    EXPECT_FALSE(parse_byte_size("M"));
    EXPECT_FALSE(parse_byte_size("12Q"));
    EXPECT_FALSE(parse_byte_size("-5"));
    EXPECT_FALSE(parse_byte_size("99999999999999999999"));
    EXPECT_FALSE(parse_byte_size("20000000000T"));  // beyond 64 bits once shifted
}

TEST(MemoryBudget, FormatsBytes) {
    EXPECT_EQ(format_bytes(12), "12 bytes");
    EXPECT_EQ(format_bytes(16 << 10), "16 KiB");
    EXPECT_EQ(format_bytes(3 << 19), "1.5 MiB");
    EXPECT_EQ(format_bytes(std::uint64_t{40} << 30), "40 GiB");
}

TEST(MemoryBudget, EnvironmentSetsTheLimitAndARefusalNamesIt) {
    ::setenv(MemoryBudget::kEnvironment, "2M", 1);
    MemoryBudget budget("trace.json");
    ::unsetenv(MemoryBudget::kEnvironment);
    EXPECT_EQ(budget.limit(), 2u << 20);
    EXPECT_NO_THROW(budget.require(2u << 20, "all of it"));
    try {
        budget.require(3u << 20, "a 1.0 MiB document");
        FAIL() << "not refused";
    } catch (const FileError& e) {
        EXPECT_EQ(e.path(), "trace.json");
        EXPECT_EQ(e.problem(),
                  "a 1.0 MiB document needs about 3.0 MiB of memory, more than the 2.0 MiB an "
                  "import may use (set by TOKENSCOPE_MEMORY_LIMIT); refused before memory runs "
                  "out");
    }
}

TEST(MemoryBudget, DefaultIsThreeQuartersOfAvailableMemory) {
    ::unsetenv(MemoryBudget::kEnvironment);
    std::uint64_t available = available_memory_bytes();
    MemoryBudget budget("x");
    // Available memory moves between the two reads: within 5% of 3/4 of it.
    EXPECT_NEAR(static_cast<double>(budget.limit()), 0.75 * static_cast<double>(available),
                0.05 * static_cast<double>(available));
    EXPECT_GT(available, std::uint64_t{64} << 20);
}

TEST(MemoryBudget, RunBytesCountVectorsAndStrings) {
    RunData run;
    std::uint64_t empty = run_memory_bytes(run);
    run.activities.reserve(1000);
    run.strings.intern("gemm");
    EXPECT_EQ(run_memory_bytes(run) - empty, 1000 * sizeof(Activity) + kBytesPerString);
}

}  // namespace
}  // namespace tokenscope::trace
