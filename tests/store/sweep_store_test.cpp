// The sweep tables: written points read back only when their run is complete, and a
// version 3 file (no sweep tables) migrates to 4 or, unmigrated, has no sweeps.
#include "store/sweep_store.h"

#include <gtest/gtest.h>

#include "store/schema.h"
#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::downgrade_store;

TEST(SweepStore, PointsOfCompleteRunsReadBackInOrder) {
    TempDir dir;
    const std::string path = dir.file("sweep.tokenscope");
    std::int64_t run_a = 0, run_b = 0;
    {
        StoreWriter writer(path);
        run_a = writer.write_run(test::sample_run("a", 1));
        run_b = writer.write_run(test::sample_run("b", 2));
    }
    SweepStore sweeps(path, false);
    const std::int64_t id = sweeps.add_sweep({0, "qps", 42, R"({"args":["--qps","1,2"]})"});
    sweeps.add_point(id, {1, 0, run_b, R"({"qps":2})"});
    sweeps.add_point(id, {0, 0, run_a, R"({"qps":1})"});
    sweeps.add_point(id, {0, 1, run_b + 100, R"({"qps":1})"});            // its run never finished
    EXPECT_THROW(sweeps.add_point(id, {0, 0, run_a, "{}"}), StoreError);  // key taken

    SweepStore reader(path, true);
    ASSERT_EQ(reader.sweeps().size(), 1u);
    EXPECT_EQ(reader.sweeps()[0].name, "qps");
    EXPECT_EQ(reader.sweeps()[0].created_ns, 42);
    auto points = reader.points(id);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].point, 0);
    EXPECT_EQ(points[0].run_id, run_a);
    EXPECT_EQ(points[0].params_json, R"({"qps":1})");
    EXPECT_EQ(points[1].point, 1);
    EXPECT_EQ(points[1].run_id, run_b);
    EXPECT_EQ(reader.requests(run_a), test::sample_run("a", 1).requests);
}

TEST(SweepStore, Version3FileMigratesAndReadOnlyHasNoSweeps) {
    TempDir dir;
    const std::string path = dir.file("v3.tokenscope");
    StoreWriter(path).write_run(test::sample_run("old", 3));
    downgrade_store(path, 3);
    EXPECT_TRUE(SweepStore(path, true).sweeps().empty());  // read as it is
    {
        StoreReader reader(path);
        EXPECT_EQ(reader.schema_version(), kSchemaVersion);
        EXPECT_EQ(reader.runs().size(), 1u);
    }
    SweepStore sweeps(path, false);
    const std::int64_t id = sweeps.add_sweep({0, "after", 1, "{}"});
    EXPECT_EQ(SweepStore(path, true).sweeps().at(0).id, id);
}

}  // namespace
}  // namespace tokenscope::store
