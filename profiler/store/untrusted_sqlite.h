#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace tokenscope::store {

// Guards for an SQLite file someone else made (docs/hostile-input.md). The
// store's read-only connections and the Nsight Systems importer open every
// file through it, so reading one never runs code the file asks for and never
// takes more memory than the limits below allow.
class UntrustedSqlite {
  public:
    // Which tables the caller's queries read: a trigger, view or virtual table
    // standing for one of them is refused.
    using TableFilter = bool (*)(std::string_view table);

    // Largest string or blob SQLite will hand out (SQLITE_LIMIT_LENGTH); a
    // .tokenscope activity chunk is at most ~200 KB, an Nsight Systems string a few KB.
    static constexpr int kMaxValueBytes = 64 << 20;
    // Longest SQL statement: our queries are under 2 KB; schema entries of real files under 16 KB.
    static constexpr int kMaxSqlBytes = 256 << 10;
    static constexpr int kMaxColumns = 512;

    // Call right after sqlite3_open_v2: defensive mode, trusted_schema off,
    // no extension loading, no ATTACH, triggers and views disabled, and limits
    // on lengths, columns, SQL size, expression depth and the like.
    static void harden(sqlite3* db);
    // What makes the file unsafe or unreadable, or nullopt when there is
    // nothing: a trigger, view or virtual table on a table `reads` accepts, or
    // a failed PRAGMA quick_check. The caller names the file in its error.
    // `checked`: the only tables the caller reads; quick_check then walks just their
    // b-trees (and indexes) instead of the whole file, which on an 800 MB sweep of
    // token steps took seconds for a report that reads the requests. Empty: all.
    static std::optional<std::string> problem(sqlite3* db, TableFilter reads,
                                              const std::vector<std::string>& checked = {});

  private:
    static std::optional<std::string> schema_problem(sqlite3* db, TableFilter reads);
    static std::optional<std::string> integrity_problem(sqlite3* db, const std::string& pragma);
    static std::optional<std::string> tables_problem(sqlite3* db,
                                                     const std::vector<std::string>& tables);
};

}  // namespace tokenscope::store
