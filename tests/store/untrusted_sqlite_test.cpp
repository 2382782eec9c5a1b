// Hostile .tokenscope files, made here with the sqlite3 API: what docs/hostile-input.md
// section 15 promises for a file someone else sends (no SQL of the file's own
// runs, limits on what it can make us allocate, a clear refusal naming it).
#include "store/untrusted_sqlite.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
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

std::string good_file(const TempDir& dir, const std::string& name) {
    std::string path = dir.file(name);
    StoreWriter(path).write_run(test::sample_run("r", 1));
    return path;
}

// Opening must fail with a StoreError naming the file and containing `reason`.
void expect_refused(const std::string& path, const std::string& reason) {
    try {
        StoreReader reader(path);
        FAIL() << "opened " << path;
    } catch (const StoreError& e) {
        std::string what = e.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find(reason), std::string::npos) << what;
    }
}

TEST(UntrustedSqlite, HardenSetsDefensiveModeNoTrustedSchemaAndLimits) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    UntrustedSqlite::harden(db);
    int v = -1;
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &v);
    EXPECT_EQ(v, 1);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &v);
    EXPECT_EQ(v, 0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, -1, &v);
    EXPECT_EQ(v, 0);
    EXPECT_EQ(sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1), UntrustedSqlite::kMaxValueBytes);
    EXPECT_EQ(sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, -1), UntrustedSqlite::kMaxSqlBytes);
    EXPECT_EQ(sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1), UntrustedSqlite::kMaxColumns);
    EXPECT_EQ(sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, -1), 0);
    // Nothing can load code or reach another file.
    EXPECT_NE(sqlite3_exec(db, "SELECT load_extension('/tmp/evil.so')", nullptr, nullptr, nullptr),
              SQLITE_OK);
    EXPECT_NE(sqlite3_exec(db, "ATTACH '/tmp/other.db' AS o", nullptr, nullptr, nullptr),
              SQLITE_OK);
    EXPECT_NE(sqlite3_exec(db, "PRAGMA writable_schema = ON; DELETE FROM sqlite_master", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
}

TEST(UntrustedSqlite, TriggerOnATableWeReadIsRefused) {
    TempDir dir;
    std::string path = good_file(dir, "trigger.tokenscope");
    run_sql(path,
            "CREATE TRIGGER evil AFTER INSERT ON run BEGIN "
            "SELECT load_extension('/tmp/evil.so'); END;");
    expect_refused(path, "refused: its schema has a trigger 'evil' on table 'run'");
}

TEST(UntrustedSqlite, ViewStandingForATableWeReadIsRefused) {
    TempDir dir;
    std::string path = good_file(dir, "view.tokenscope");
    run_sql(path,
            "DROP TABLE diagnostic; CREATE VIEW diagnostic (run_id, name, severity, value, text) "
            "AS SELECT 1, 'x', 'info', 0, zeroblob(1000000000);");
    expect_refused(path, "refused: its schema has a view 'diagnostic'");
}

TEST(UntrustedSqlite, ValueLongerThanTheLimitIsAnErrorNotAnAllocation) {
    TempDir dir;
    std::string path = good_file(dir, "huge.tokenscope");
    // One string of the run longer than kMaxValueBytes: reading it must stop at the limit.
    run_sql(path, "UPDATE string SET text = CAST(zeroblob(" +
                      std::to_string(UntrustedSqlite::kMaxValueBytes + 1) +
                      ") AS TEXT) WHERE id = (SELECT max(id) FROM string);");
    StoreReader reader(path);
    auto runs = reader.runs();
    ASSERT_EQ(runs.size(), 1u);
    try {
        (void)reader.load_run(runs[0].info.id);
        FAIL() << "read a value over the length limit";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("too big"), std::string::npos) << e.what();
    }
}

// Overwrites page `page` (1-based) of the file with a pattern SQLite cannot parse.
void scribble_page(const std::string& path, long page, long page_size) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp((page - 1) * page_size);
    std::string junk(static_cast<std::size_t>(page_size), '\x0d');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
}

TEST(UntrustedSqlite, CorruptPageFailsTheQuickCheckWithAClearMessage) {
    TempDir dir;
    std::string path = good_file(dir, "corrupt.tokenscope");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db,
                                 "SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM "
                                 "sqlite_master WHERE name = 'step_by_request'",
                                 -1, &st, nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    long page = sqlite3_column_int(st, 0), page_size = sqlite3_column_int(st, 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
    scribble_page(path, page, page_size);  // an index no query of the opener touches
    expect_refused(path, "corrupt file");
}

TEST(UntrustedSqlite, ForeignDatabaseWithTriggersIsStillNamedForeign) {
    // Another application's database is not ours to judge: the opener hands it on.
    TempDir dir;
    std::string path = dir.file("other.db");
    run_sql(path,
            "PRAGMA application_id = 1234; CREATE TABLE t (x);"
            "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;");
    try {
        StoreReader reader(path);
        FAIL() << "opened a foreign file";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("not a Tokenscope file"), std::string::npos)
            << e.what();
    }
}

TEST(UntrustedSqlite, OrdinaryFileOpensAndReads) {
    TempDir dir;
    std::string path = good_file(dir, "fine.tokenscope");
    StoreReader reader(path);
    auto runs = reader.runs();
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(reader.load_run(runs[0].info.id).info.name, "r");
}

}  // namespace
}  // namespace tokenscope::store
