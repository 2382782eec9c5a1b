#pragma once

// Builds small Nsight-Systems-like SQLite files for the importer tests, with
// the sqlite3 C API directly, so the expected values are the rows written here.

#include <sqlite3.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace tokenscope::import::testing {

// nsys packs pid into bits 24..47 and tid into bits 0..23 of a global id.
constexpr std::int64_t global_tid(std::int64_t pid, std::int64_t tid) {
    return (pid << 24) | tid;
}

inline std::string temp_path(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() /
               ("tokenscope_import_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

class TestDb {
  public:
    explicit TestDb(const std::string& path) : path_(path) {
        std::filesystem::remove(path);
        if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) throw std::runtime_error("open " + path);
        exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=OFF;");  // test files: speed over safety
    }
    ~TestDb() { sqlite3_close(db_); }
    TestDb(const TestDb&) = delete;
    TestDb& operator=(const TestDb&) = delete;

    void exec(const std::string& sql) {
        char* err = nullptr;
        if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
            std::string msg = err ? err : "?";
            sqlite3_free(err);
            throw std::runtime_error("sql: " + msg + " in " + sql);
        }
    }
    const std::string& path() const { return path_; }

    // The tables of a current (3.x) export, empty.
    void create_modern_schema() {
        exec(
            "CREATE TABLE META_DATA_EXPORT(name TEXT, value TEXT);"
            "INSERT INTO META_DATA_EXPORT VALUES('EXPORT_SCHEMA_VERSION','3.13.2');"
            "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE ThreadNames(nameId INTEGER, priority INTEGER, globalTid INTEGER);"
            "CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, smCount INTEGER,"
            " memoryBandwidth INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER,"
            " eventClass INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER,"
            " deviceId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
            " demangledName INTEGER, shortName INTEGER, gridX INTEGER, blockX INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER,"
            " deviceId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
            " bytes INTEGER, copyKind INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER, end INTEGER,"
            " deviceId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
            " value INTEGER, bytes INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INTEGER, end INTEGER,"
            " deviceId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
            " syncType INTEGER);"
            "CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER,"
            " text TEXT, textId INTEGER, globalTid INTEGER, endGlobalTid INTEGER);"
            "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER,"
            " typeName TEXT, metricId INTEGER, metricName TEXT);"
            "CREATE TABLE GPU_METRICS(timestamp INTEGER, typeId INTEGER, metricId INTEGER,"
            " value INTEGER);");
    }

  private:
    std::string path_;
    sqlite3* db_ = nullptr;
};

// Counts with one SQL statement on a file, read-only: the independent side of a check.
inline std::int64_t sql_int(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    std::string uri = "file:" + path + "?immutable=1";
    if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
        SQLITE_OK)
        throw std::runtime_error("open " + path);
    sqlite3_stmt* st = nullptr;
    std::int64_t v = -1;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (v < 0) throw std::runtime_error("query failed: " + sql);
    return v;
}

}  // namespace tokenscope::import::testing
