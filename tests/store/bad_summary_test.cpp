// Summaries and histograms of a file from elsewhere (docs/hostile-input.md): a planted
// malformed row makes the summary read fail with a StoreError naming the file, never a
// crash, a wrong figure or a huge allocation; the run itself still loads.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::run_sql;

std::int64_t write_run(const std::string& path) {
    StoreWriter writer(path);
    auto run = writer.begin_run({});
    run->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
    run->intern("gemm");
    for (int i = 0; i < 500; ++i) {
        trace::Activity a;
        a.name = 1;
        a.start_ns = i * 10'000;
        a.end_ns = a.start_ns + 4'000;
        run->add_activity(a);
    }
    run->finish();
    return run->run_id();
}

// Plants `sql` in a fresh file, then expects `read` to throw a StoreError naming the file
// and saying `reason`, while load_run still reads all 500 activities.
void expect_bad(const std::string& sql, const std::string& reason,
                const std::function<void(const StoreReader&, std::int64_t)>& read) {
    TempDir dir;
    const std::string path = dir.file("bad.tokenscope");
    const std::int64_t run = write_run(path);
    run_sql(path, sql);
    StoreReader reader(path);
    try {
        read(reader, run);
        FAIL() << "read " << sql << " without error";
    } catch (const StoreError& e) {
        EXPECT_EQ(e.path(), path);
        EXPECT_NE(std::string(e.what()).find(reason), std::string::npos) << e.what();
    }
    EXPECT_EQ(reader.load_run(run).activities.size(), 500u);
}

const auto kBins = [](const StoreReader& r, std::int64_t run) {
    (void)r.summary_bins(run, 0, 0, 0, 10'000'000);
};
const auto kHistogram = [](const StoreReader& r, std::int64_t run) {
    (void)r.duration_histogram(run, 1, 0, std::int64_t{1} << 40);
};

TEST(StoreBadSummary, MalformedChunkData) {
    expect_bad("UPDATE summary_chunk SET data = X'FFFFFFFF' WHERE level = 0",
               "malformed summary chunk", kBins);
}

TEST(StoreBadSummary, CountBeyondTheDataReservesNothing) {
    expect_bad("UPDATE summary_chunk SET count = 4000000000000 WHERE level = 0",
               "malformed summary chunk", kBins);
}

TEST(StoreBadSummary, BoundsInsideOut) {
    expect_bad("UPDATE summary_chunk SET bin_min = bin_max + 5, bin_max = bin_min WHERE level = 0",
               "malformed summary chunk", kBins);
}

TEST(StoreBadSummary, BinsAtTheEndOfTime) {
    expect_bad(
        "UPDATE summary_chunk SET bin_min = -9223372036854775807, bin_max = "
        "9223372036854775807 WHERE level = 0",
        "malformed summary chunk", kBins);
}

TEST(StoreBadSummary, WidthOutOfRange) {
    expect_bad("UPDATE summary_chunk SET width_log2 = 99", "summary levels", kBins);
}

TEST(StoreBadSummary, MissingLevel) {
    expect_bad("DELETE FROM summary_chunk WHERE level = 1", "summary levels", kBins);
}

TEST(StoreBadSummary, MalformedHistogram) {
    expect_bad("UPDATE duration_histogram SET data = X'0501'", "malformed duration histogram",
               kHistogram);
}

TEST(StoreBadSummary, HistogramBlockBeyondTime) {
    expect_bad("UPDATE duration_histogram SET block = 4611686018427387904",
               "malformed duration histogram", kHistogram);
}

// A run marked summarised that has no rows reads as empty summaries, not as an error.
TEST(StoreBadSummary, NoRowsReadsEmpty) {
    TempDir dir;
    const std::string path = dir.file("empty.tokenscope");
    const std::int64_t run = write_run(path);
    run_sql(path, "DELETE FROM summary_chunk; DELETE FROM duration_histogram;");
    StoreReader reader(path);
    EXPECT_TRUE(reader.summary_levels(run, 0).empty());
    EXPECT_TRUE(reader.summary_bins(run, 0, 0, 0, 1'000'000).empty());
    EXPECT_TRUE(reader.duration_histogram(run, 1, 0, 1'000'000).empty());
}

}  // namespace
}  // namespace tokenscope::store
