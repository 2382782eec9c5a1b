#pragma once
// Store files as older builds wrote them, and SQL read or run on a file behind the
// store's back: what the migration tests of every schema version share. The test
// links SQLite (tests/store does).
#include <sqlite3.h>

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>

namespace tokenscope::test {

// Runs `sql` on the file; throws std::runtime_error with SQLite's message when it fails.
inline void run_sql(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        const std::string why = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw std::runtime_error(path + ": cannot open: " + why);
    }
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    const std::string why = err != nullptr ? err : "";
    sqlite3_free(err);
    sqlite3_close(db);
    if (rc != SQLITE_OK) throw std::runtime_error(path + ": " + sql + ": " + why);
}

// The first column of the first row of `sql`, or -999 when there is no row (or the
// query fails), a value no planted field uses.
inline std::int64_t query_int(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr);
    const std::int64_t v =
        st != nullptr && sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -999;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

// Turns a file this build wrote into one of schema `version` (1..current): undoes each
// migration from the newest down (profiler/store/schema.cpp, kMigrateNToN+1), then
// stamps the version. What the file holds for the newer columns and tables is lost, as
// it never was in an old file.
inline void downgrade_store(const std::string& path, int version) {
    // kUndo[n]: the SQL that takes a version n+1 file back to version n.
    static const char* const kUndo[] = {
        nullptr,
        "ALTER TABLE run DROP COLUMN clock; ALTER TABLE step DROP COLUMN floor_ns; "
        "DROP TABLE counter_sample;",
        "DROP TABLE kernel_launch;",
        "DROP TABLE sweep; DROP TABLE sweep_point;",
        "ALTER TABLE step DROP COLUMN prefill_requests; ALTER TABLE step DROP COLUMN "
        "prefill_tokens; ALTER TABLE step DROP COLUMN decode_requests; ALTER TABLE step "
        "DROP COLUMN decode_tokens;",
        "ALTER TABLE lane DROP COLUMN rank; ALTER TABLE run DROP COLUMN origin_utc_ns;",
        "DROP TABLE graph_activity;",
        "DROP TABLE launch_chunk; DROP TABLE launch_config;",
        "ALTER TABLE step DROP COLUMN prefill_key_tokens; ALTER TABLE step DROP COLUMN "
        "decode_key_tokens; ALTER TABLE step DROP COLUMN marker_end_ns;",
        "DROP TABLE summary_chunk; ALTER TABLE run DROP COLUMN summarized;",
        "DROP TABLE duration_histogram;",
        "DROP TABLE activity_total;",
    };
    constexpr int kNewest = static_cast<int>(sizeof kUndo / sizeof kUndo[0]);
    const auto current = query_int(path, "PRAGMA user_version");
    if (current != kNewest || version < 1 || version > kNewest)
        throw std::runtime_error(path + ": cannot make a version " + std::to_string(version) +
                                 " file from version " + std::to_string(current) +
                                 " (old_store.h knows versions 1 to " + std::to_string(kNewest) +
                                 ")");
    std::string sql;
    for (int v = kNewest - 1; v >= version; --v) sql += kUndo[v];
    run_sql(path, sql + " PRAGMA user_version = " + std::to_string(version) + ";");
}

// Overwrites the b-tree root page of `table` (or index) with garbage, as a bad disk would.
inline void corrupt_root_page(const std::string& path, const std::string& table) {
    const std::int64_t page_size = query_int(path, "PRAGMA page_size");
    const std::int64_t root =
        query_int(path, "SELECT rootpage FROM sqlite_master WHERE name = '" + table + "'");
    if (page_size <= 0 || root <= 1)
        throw std::runtime_error(path + ": no root page of '" + table + "' to corrupt");
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp((root - 1) * page_size);
    const std::string junk(static_cast<std::size_t>(page_size), '\xA5');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
}

}  // namespace tokenscope::test
