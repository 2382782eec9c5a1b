// Summaries of a file that is not migrated (read-only media, ReaderOptions) are built into
// a cache beside the user's data (summary_cache.h): the file stays byte for byte as it
// was, later opens of it find them, a changed file does not take a stale cache, and a
// cancelled build leaves nothing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "store/schema.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;

// XDG_CACHE_HOME pointed at a directory of the test's own while it lives.
class CacheHome {
  public:
    CacheHome() : dir_("tokenscope-cache") {
        const char* old = std::getenv("XDG_CACHE_HOME");
        if (old != nullptr) old_ = old;
        setenv("XDG_CACHE_HOME", dir_.path().c_str(), 1);
    }
    ~CacheHome() {
        if (old_.empty())
            unsetenv("XDG_CACHE_HOME");
        else
            setenv("XDG_CACHE_HOME", old_.c_str(), 1);
    }
    std::size_t files() const {
        const auto d = dir_.path() / "tokenscope" / "summaries";
        if (!std::filesystem::exists(d)) return 0;
        return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(d),
                                                      std::filesystem::directory_iterator()));
    }
    std::filesystem::path dir() const { return dir_.path() / "tokenscope" / "summaries"; }

  private:
    TempDir dir_;
    std::string old_;
};

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A version 9 file (no summaries) of 3000 kernels of two names on one stream.
std::int64_t write_v9(const std::string& path, std::int64_t& busy) {
    std::int64_t id = 0;
    busy = 0;
    {
        StoreWriter writer(path);
        auto run = writer.begin_run({});
        run->add_lane({trace::LaneKind::GpuStream, 0, 1, 7, "stream 7"});
        run->intern("gemm");
        run->intern("norm");
        for (int i = 0; i < 3000; ++i) {
            trace::Activity a;
            a.name = 1 + i % 2;
            a.start_ns = i * 20'000;
            a.end_ns = a.start_ns + 5'000 + (i % 7) * 1'000;
            busy += a.end_ns - a.start_ns;
            run->add_activity(a);
        }
        run->finish();
        id = run->run_id();
    }
    tokenscope::test::downgrade_store(path, 9);
    return id;
}

TEST(SummaryCache, FileNotMigratedGetsItsSummariesBesideIt) {
    CacheHome home;
    TempDir dir;
    const std::string path = dir.file("v9.tokenscope");
    std::int64_t busy = 0;
    const std::int64_t run = write_v9(path, busy);
    const std::string before = bytes_of(path);
    {
        StoreReader reader(path, {.migrate = false});
        EXPECT_EQ(reader.schema_version(), 9);
        EXPECT_FALSE(reader.has_summaries(run));
        std::int64_t last_done = 0, last_total = 0;
        EXPECT_TRUE(reader.build_summary_cache([&](std::int64_t done, std::int64_t total) {
            last_done = done, last_total = total;
            return true;
        }));
        EXPECT_EQ(last_done, 3000);
        EXPECT_EQ(last_total, 3000);
        ASSERT_TRUE(reader.has_summaries(run));
        const auto levels = reader.summary_levels(run, 0);
        ASSERT_FALSE(levels.empty());
        for (const auto& level : levels) {
            std::int64_t got_busy = 0, got_count = 0;
            for (const auto& b : reader.summary_bins(run, 0, level.level, 0, 100'000'000))
                got_busy += b.busy_ns, got_count += b.count;
            EXPECT_EQ(got_busy, busy) << level.level;
            EXPECT_EQ(got_count, 3000) << level.level;
        }
        EXPECT_EQ(reader.duration_histogram(run, 1, 0, std::int64_t{1} << 40).count(), 1500u);
    }
    EXPECT_EQ(bytes_of(path), before);  // the user's file untouched
    EXPECT_EQ(home.files(), 1u);
    // A later open of the unchanged file reads them from the cache at once.
    StoreReader again(path, {.migrate = false});
    EXPECT_TRUE(again.has_summaries(run));
    EXPECT_FALSE(again.build_summary_cache());
    EXPECT_EQ(again.duration_histogram(run, 2, 0, std::int64_t{1} << 40).count(), 1500u);
}

TEST(SummaryCache, ChangedFileDoesNotTakeAStaleCache) {
    CacheHome home;
    TempDir dir;
    const std::string path = dir.file("v9.tokenscope");
    std::int64_t busy = 0;
    const std::int64_t run = write_v9(path, busy);
    StoreReader(path, {.migrate = false}).build_summary_cache();
    std::filesystem::last_write_time(
        path, std::filesystem::last_write_time(path) + std::chrono::seconds(5));
    StoreReader reader(path, {.migrate = false});
    EXPECT_FALSE(reader.has_summaries(run));
    EXPECT_TRUE(reader.build_summary_cache());
    EXPECT_EQ(home.files(), 2u);  // the stale one stays until someone clears the cache
    // A cache that is no SQLite file at all is passed over too.
    for (const auto& e : std::filesystem::directory_iterator(home.dir()))
        std::ofstream(e.path(), std::ios::trunc) << "not a cache";
    StoreReader garbled(path, {.migrate = false});
    EXPECT_FALSE(garbled.has_summaries(run));
    EXPECT_TRUE(garbled.build_summary_cache());
    EXPECT_TRUE(garbled.has_summaries(run));
}

TEST(SummaryCache, CancelledBuildLeavesNothing) {
    CacheHome home;
    TempDir dir;
    const std::string path = dir.file("v9.tokenscope");
    std::int64_t busy = 0;
    const std::int64_t run = write_v9(path, busy);
    StoreReader reader(path, {.migrate = false});
    EXPECT_THROW(reader.build_summary_cache([](std::int64_t, std::int64_t) { return false; }),
                 trace::Cancelled);
    EXPECT_FALSE(reader.has_summaries(run));
    EXPECT_EQ(home.files(), 0u);
}

// A file that migrates needs no cache: its summaries are in it.
TEST(SummaryCache, MigratedFileNeedsNone) {
    CacheHome home;
    TempDir dir;
    const std::string path = dir.file("v9.tokenscope");
    std::int64_t busy = 0;
    const std::int64_t run = write_v9(path, busy);
    StoreReader reader(path);
    EXPECT_EQ(reader.schema_version(), kSchemaVersion);
    EXPECT_TRUE(reader.has_summaries(run));
    EXPECT_FALSE(reader.build_summary_cache());
    EXPECT_EQ(home.files(), 0u);
}

}  // namespace
}  // namespace tokenscope::store
