#include <gtest/gtest.h>
#include <sqlite3.h>

#include <vector>

#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"

namespace tokenscope::store {
namespace {

using test::TempDir;

// The chunk blobs of a run's lanes, lane by lane, read with plain SQL as an old
// (schema v2) reader would.
std::vector<std::vector<std::uint8_t>> chunk_blobs(const std::string& path) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(
        sqlite3_prepare_v2(db, "SELECT data FROM activity_chunk ORDER BY lane", -1, &st, nullptr),
        SQLITE_OK);
    std::vector<std::vector<std::uint8_t>> blobs;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(st, 0));
        blobs.emplace_back(p, p + sqlite3_column_bytes(st, 0));
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return blobs;
}

TEST(StoreDeviceSlot, WriterStoresEachLaneDeviceInEveryActivity) {
    TempDir dir;
    std::string path = dir.file("device.tokenscope");
    trace::RunData run;
    run.info.name = "device slot";
    run.lanes = {{trace::LaneKind::CpuThread, -1, 10, 11, "main"},
                 {trace::LaneKind::GpuStream, 3, 10, 7, "GPU 3 stream 7"}};
    run.strings.intern("k");
    run.activities = {
        {100, 110, 5, 2.6f, 1, 0, 1, trace::ActivityKind::Kernel, trace::CopyKind::None},
        {200, 201, 0, 0, 1, 7, 0, trace::ActivityKind::Api, trace::CopyKind::None}};
    std::int64_t id = StoreWriter(path).write_run(run);

    auto blobs = chunk_blobs(path);
    ASSERT_EQ(blobs.size(), 2u);
    // Lane 0 (host): start delta 0, duration 1 -> 2, name 1, correlation +7 -> 14,
    // api (3), device -1, bytes 0, flops 0.
    EXPECT_EQ(blobs[0], (std::vector<std::uint8_t>{0x00, 0x02, 0x01, 0x0e, 0x03, 0xff, 0, 0}));
    // Lane 1 (GPU 3): duration 10 -> 20, kernel (0), device 3, bytes 5, flops 2.6 -> 3.
    EXPECT_EQ(blobs[1], (std::vector<std::uint8_t>{0x00, 0x14, 0x01, 0x00, 0x00, 0x03, 5, 3}));

    trace::RunData got = StoreReader(path).load_run(id);
    ASSERT_EQ(got.activities.size(), 2u);
    EXPECT_EQ(got.activities[0].kind, trace::ActivityKind::Api);  // sorted by lane
    EXPECT_EQ(got.device_of(got.activities[0]), -1);
    EXPECT_EQ(got.device_of(got.activities[1]), 3);
    EXPECT_EQ(got.activities[1].flops, 3.0f);  // what the integer slot kept
}

}  // namespace
}  // namespace tokenscope::store
