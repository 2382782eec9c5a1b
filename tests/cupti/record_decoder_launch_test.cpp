// Kernel launch facts from CUPTI kernel records: grid, block, shared memory and
// registers reach the run's launch table, keyed by the kernel's correlation id.
#include <gtest/gtest.h>

#include "capture/cupti/record_decoder.h"
#include "capture/memory_run_writer.h"
#include "cupti_records.h"

namespace tokenscope::capture::cupti {
namespace {

using namespace records;

KernelRecord launched(std::uint64_t start, std::uint64_t end, std::uint32_t correlation,
                      std::array<std::int32_t, 3> grid, std::array<std::int32_t, 3> block,
                      std::int32_t static_shared, std::int32_t dynamic_shared,
                      std::uint16_t registers) {
    KernelRecord r = kernel(start, end, 7, correlation, "gemv_kernel");
    r.gridX = grid[0], r.gridY = grid[1], r.gridZ = grid[2];
    r.blockX = block[0], r.blockY = block[1], r.blockZ = block[2];
    r.staticSharedMemory = static_shared;
    r.dynamicSharedMemory = dynamic_shared;
    r.registersPerThread = registers;
    return r;
}

class RecordDecoderLaunchTest : public ::testing::Test {
  protected:
    const trace::RunData& finish() {
        decoder.finish();
        writer.finish();
        return writer.data();
    }
    MemoryRunWriter writer;
    RecordDecoder decoder{writer, DecoderOptions{"", true, 4242}};
};

TEST_F(RecordDecoderLaunchTest, KernelRecordsBecomeLaunchesByCorrelation) {
    // Arrive out of correlation order; shared memory is static + dynamic.
    const auto k1 = launched(3000, 3500, 21, {132, 2, 1}, {256, 1, 1}, 1024, 48 * 1024, 64);
    const auto k2 = launched(1000, 1500, 20, {1, 1, 1}, {32, 8, 4}, 0, 0, 255);
    for (const auto* r : {&k1, &k2}) decoder.decode(as_record(*r));
    const auto& run = finish();
    ASSERT_EQ(run.launches.size(), 2u);
    EXPECT_EQ(run.launches.at(0).correlation, 20u);
    auto l = run.launches.find(21);
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->grid, (std::array<std::uint32_t, 3>{132, 2, 1}));
    EXPECT_EQ(l->block, (std::array<std::uint32_t, 3>{256, 1, 1}));
    EXPECT_EQ(l->shared_bytes, 50176u);  // 1024 + 49152
    EXPECT_EQ(l->registers_per_thread, 64);
    l = run.launches.find(20);
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->block, (std::array<std::uint32_t, 3>{32, 8, 4}));
    EXPECT_EQ(l->registers_per_thread, 255);
    // The kernel activity carries the same correlation, which is how the hover finds it.
    ASSERT_EQ(run.activities.size(), 2u);
    EXPECT_TRUE(run.launches.find(run.activities[0].correlation).has_value());
}

TEST_F(RecordDecoderLaunchTest, SkippedOrUncorrelatedKernelsHaveNoLaunch) {
    const auto untimed = launched(0, 1500, 30, {4, 1, 1}, {64, 1, 1}, 0, 0, 32);
    const auto uncorrelated = launched(2000, 2500, 0, {4, 1, 1}, {64, 1, 1}, 0, 0, 32);
    const auto negative = launched(3000, 3100, 31, {-1, 1, 1}, {64, 1, 1}, -5, 16, 32);
    for (const auto* r : {&untimed, &uncorrelated, &negative}) decoder.decode(as_record(*r));
    const auto& run = finish();
    ASSERT_EQ(run.launches.size(), 1u);
    EXPECT_FALSE(run.launches.find(30).has_value());
    const auto l = run.launches.find(31);
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->grid[0], 0u);        // a negative dimension is no dimension
    EXPECT_EQ(l->shared_bytes, 16u);  // -5 static reads as 0
}

}  // namespace
}  // namespace tokenscope::capture::cupti
