#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace tokenscope::import {

// A read-only, immutable view of an Nsight Systems SQLite export: the source
// file is never written, locked or given a journal (docs/file-format.md).
// Column probing lets one query text serve old and new export schemas. The
// file is untrusted (docs/hostile-input.md): opened hardened, and with Full
// checks refused when its schema has triggers, views or virtual tables where
// the tables we read belong, or it fails PRAGMA quick_check. Every query text
// is built from our own table and column names; nothing from the file is
// ever spliced into SQL.
class NsysDatabase {
  public:
    // Schema: only what recognising the format needs (the table list);
    // Full: also the schema and integrity checks, before an import.
    enum class Checks { Schema, Full };

    explicit NsysDatabase(const std::string& path, Checks checks = Checks::Full);
    ~NsysDatabase();
    NsysDatabase(const NsysDatabase&) = delete;
    NsysDatabase& operator=(const NsysDatabase&) = delete;

    bool has_table(std::string_view table) const;
    bool has_column(std::string_view table, std::string_view column) const;
    // `column` when the table has it, else the SQL literal `fallback`.
    std::string column_or(std::string_view table, std::string_view column,
                          std::string_view fallback) const;
    std::int64_t count_rows(std::string_view table) const;  // 0 when the table is absent

    // Runs a query and calls fn(stmt) per row; fn returns false to stop early.
    template <typename Fn>
    void for_each_row(const std::string& sql, Fn&& fn) const {
        sqlite3_stmt* stmt = prepare(sql);
        int rc;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
            if (!fn(stmt)) break;
        finish(stmt, rc, sql);
    }

    const std::string& path() const { return path_; }
    sqlite3* handle() const { return db_; }

  private:
    sqlite3_stmt* prepare(const std::string& sql) const;
    void finish(sqlite3_stmt* stmt, int rc, const std::string& sql) const;
    void verify() const;
    void load_tables();

    std::string path_;
    sqlite3* db_ = nullptr;
    std::unordered_set<std::string> tables_;
};

}  // namespace tokenscope::import
