// Hostile Nsight Systems exports, made here: a schema that would have our
// queries run SQL the file brings along is refused with a message naming the
// file; a corrupt page is caught by the integrity check up front.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "import/import_error.h"
#include "import/nsys/nsys_importer.h"
#include "import/open_any.h"
#include "nsys_test_db.h"
#include "store/untrusted_sqlite.h"
#include "support/fixtures.h"

namespace tokenscope::import {
namespace {

using testing::temp_path;
using testing::TestDb;

// A modern export with one kernel, plus `extra` SQL run on it.
std::string make_export(const std::string& name, const std::string& extra) {
    std::string path = temp_path(name);
    TestDb db(path);
    db.create_modern_schema();
    db.exec(
        "INSERT INTO StringIds VALUES (1, 'gemm_kernel');"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 200, 0, 7, 11, 4096, 1, 1, 8, 256);");
    db.exec(extra);
    return path;
}

std::string import_error(const std::string& path) {
    try {
        (void)open_any(path);
    } catch (const ImportError& e) {
        return e.what();
    }
    return "no error";
}

TEST(NsysUntrusted, ViewStandingForAnActivityTableIsRefused) {
    std::string path = make_export("view.sqlite",
                                   "DROP TABLE CUPTI_ACTIVITY_KIND_MEMCPY;"
                                   "CREATE VIEW CUPTI_ACTIVITY_KIND_MEMCPY AS SELECT 1 AS start, "
                                   "2 AS end, 0 AS deviceId, 0 AS streamId, 0 AS correlationId, "
                                   "0 AS globalPid, zeroblob(900000000) AS bytes, 1 AS copyKind;");
    std::string msg = import_error(path);
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("refused: its schema has a view 'CUPTI_ACTIVITY_KIND_MEMCPY'"),
              std::string::npos)
        << msg;
}

TEST(NsysUntrusted, TriggerOnAStringTableIsRefused) {
    std::string path = make_export(
        "trigger.sqlite", "CREATE TRIGGER t AFTER INSERT ON StringIds BEGIN SELECT 1; END;");
    std::string msg = import_error(path);
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("trigger 't' on table 'StringIds'"), std::string::npos) << msg;
}

TEST(NsysUntrusted, ViewOfTheUsersOwnThatWeNeverReadIsFine) {
    std::string path = make_export(
        "own_view.sqlite", "CREATE VIEW my_kernels AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;");
    auto runs = open_any(path);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].activities.size(), 1u);
}

TEST(NsysUntrusted, CorruptPageIsReportedBeforeImporting) {
    std::string path = make_export("corrupt.sqlite", "");
    std::int64_t page = testing::sql_int(
        path, "SELECT rootpage FROM sqlite_master WHERE name = 'CUPTI_ACTIVITY_KIND_KERNEL'");
    std::int64_t page_size = testing::sql_int(path, "PRAGMA page_size");
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp((page - 1) * page_size);
        std::string junk(static_cast<std::size_t>(page_size), '\x0d');
        f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
    }
    std::string msg = import_error(path);
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    EXPECT_NE(msg.find("corrupt file: integrity check failed"), std::string::npos) << msg;
}

// The real export passes every check, and the integrity check (which reads
// every page) stays cheap: ~9 ms for this 2.1 MB file on the dev machine.
TEST(NsysUntrusted, LargestFixturePassesTheChecksQuickly) {
    std::string fixture =
        std::string(TOKENSCOPE_FIXTURES_DIR) + "/nsys/pipit_a100x4_cloverleaf.sqlite";
    TOKENSCOPE_NEED_FIXTURE_FILE(fixture);
    sqlite3* db = nullptr;
    std::string uri = "file:" + fixture + "?mode=ro&immutable=1";
    ASSERT_EQ(sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
              SQLITE_OK);
    store::UntrustedSqlite::harden(db);
    auto t0 = std::chrono::steady_clock::now();
    auto problem = store::UntrustedSqlite::problem(db, [](std::string_view) { return true; });
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    sqlite3_close(db);
    EXPECT_FALSE(problem.has_value()) << *problem;
    RecordProperty("checks_ms", std::to_string(ms));
    EXPECT_LT(ms, 500.0);
    EXPECT_GT(NsysImporter().import(fixture, {}, {}).activities.size(), 1000u);
}

}  // namespace
}  // namespace tokenscope::import
