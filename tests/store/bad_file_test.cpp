#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "store/schema.h"
#include "store/store_error.h"
#include "store/store_reader.h"
#include "store/store_writer.h"
#include "store_test_util.h"
#include "support/old_store.h"

namespace tokenscope::store {
namespace {

using test::TempDir;
using tokenscope::test::run_sql;

// Opens the file, expecting a StoreError that names the file and says `reason`.
void expect_open_error(const std::string& path, const std::string& reason) {
    try {
        StoreReader reader(path);
        FAIL() << "opened " << path << " without error";
    } catch (const StoreError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find(reason), std::string::npos) << what;
        EXPECT_EQ(e.path(), path);
    }
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

TEST(StoreBadFile, MissingFile) {
    expect_open_error(TempDir().file("nope.tokenscope"), "file not found");
}

TEST(StoreBadFile, EmptyFile) {
    TempDir dir;
    std::string path = dir.file("empty.tokenscope");
    write_bytes(path, "");
    expect_open_error(path, "empty file");
}

TEST(StoreBadFile, RandomBytes) {
    TempDir dir;
    std::string path = dir.file("noise.tokenscope");
    std::mt19937 rng(1);
    std::string noise(8192, '\0');
    for (char& c : noise) c = static_cast<char>(rng());
    write_bytes(path, noise);
    expect_open_error(path, "not a SQLite database");
    // The writer refuses it too, rather than overwriting someone's file.
    EXPECT_THROW(StoreWriter{path}, StoreError);
}

TEST(StoreBadFile, TruncatedCopyOfAValidFile) {
    TempDir dir;
    std::string good = dir.file("good.tokenscope");
    StoreWriter(good).write_run(test::sample_run("r", 1));
    auto size = std::filesystem::file_size(good);
    ASSERT_GT(size, 40'000u);
    std::string cut = dir.file("cut.tokenscope");
    std::filesystem::copy_file(good, cut);
    std::filesystem::resize_file(cut, size / 2);
    expect_open_error(cut, "truncated file");
    std::filesystem::resize_file(cut, 60);  // not even a whole SQLite header
    expect_open_error(cut, "truncated file");
}

TEST(StoreBadFile, AnotherApplicationsSqliteDatabase) {
    TempDir dir;
    std::string path = dir.file("other.db");
    run_sql(path, "PRAGMA application_id = 1234; CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    expect_open_error(path, "not a Tokenscope file (application_id 0x4d2");
    EXPECT_THROW(StoreWriter{path}, StoreError);
    std::string plain = dir.file("plain.db");
    run_sql(plain, "CREATE TABLE t (x);");
    expect_open_error(plain, "not a Tokenscope file (application_id 0x0");
}

TEST(StoreBadFile, NewerSchemaVersion) {
    TempDir dir;
    std::string path = dir.file("future.tokenscope");
    StoreWriter(path).write_run(test::sample_run("r", 1));
    // One past whatever this build writes, so the test keeps meaning "newer" after
    // every schema bump.
    const int newer = tokenscope::store::kSchemaVersion + 1;
    run_sql(path, ("PRAGMA user_version = " + std::to_string(newer) + ";").c_str());
    expect_open_error(path, "schema version " + std::to_string(newer) +
                                " is newer than this build supports (" +
                                std::to_string(tokenscope::store::kSchemaVersion) + ")");
}

TEST(StoreBadFile, UnknownRunIdIsAnErrorNotACrash) {
    TempDir dir;
    std::string path = dir.file("one.tokenscope");
    StoreWriter(path).write_run(test::sample_run("r", 1));
    try {
        StoreReader(path).load_run(99);
        FAIL() << "loaded a run that does not exist";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("no run with id 99"), std::string::npos);
    }
}

TEST(StoreBadFile, CorruptChunkBlobIsReportedNotDecodedIntoGarbage) {
    TempDir dir;
    std::string path = dir.file("blob.tokenscope");
    std::int64_t id = StoreWriter(path).write_run(test::sample_run("r", 1));
    run_sql(path, "UPDATE activity_chunk SET data = X'FFFFFF' WHERE id = 1;");
    try {
        StoreReader(path).load_run(id);
        FAIL() << "decoded a corrupt chunk";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("malformed activity chunk"), std::string::npos);
    }
}

}  // namespace
}  // namespace tokenscope::store
