#include "untrusted_sqlite.h"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <utility>

namespace tokenscope::store {
namespace {

// Every limit SQLite has, tightened to what our own queries need; an entry of
// a hostile schema beyond them makes the file fail to open, not exhaust memory.
constexpr std::array<std::pair<int, int>, 11> kLimits = {{
    {SQLITE_LIMIT_LENGTH, UntrustedSqlite::kMaxValueBytes},
    {SQLITE_LIMIT_SQL_LENGTH, UntrustedSqlite::kMaxSqlBytes},
    {SQLITE_LIMIT_COLUMN, UntrustedSqlite::kMaxColumns},
    {SQLITE_LIMIT_EXPR_DEPTH, 64},
    {SQLITE_LIMIT_COMPOUND_SELECT, 8},
    {SQLITE_LIMIT_VDBE_OP, 100000},
    {SQLITE_LIMIT_FUNCTION_ARG, 8},
    {SQLITE_LIMIT_ATTACHED, 0},
    {SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 256},
    {SQLITE_LIMIT_VARIABLE_NUMBER, 64},
    {SQLITE_LIMIT_TRIGGER_DEPTH, 1},
}};

std::string text_of(sqlite3_stmt* st, int col) {
    const auto* p = sqlite3_column_text(st, col);
    return p != nullptr ? reinterpret_cast<const char*>(p) : std::string();
}

// RAII for one prepared statement; an error becomes the returned problem.
class Query {
  public:
    Query(sqlite3* db, const char* sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql, -1, &st_, nullptr) != SQLITE_OK)
            error_ = sqlite3_errmsg(db);
    }
    ~Query() { sqlite3_finalize(st_); }
    Query(const Query&) = delete;
    Query& operator=(const Query&) = delete;

    bool step() {
        if (st_ == nullptr) return false;
        int rc = sqlite3_step(st_);
        if (rc == SQLITE_ROW) return true;
        if (rc != SQLITE_DONE) error_ = sqlite3_errmsg(db_);
        return false;
    }
    sqlite3_stmt* get() const { return st_; }
    const std::optional<std::string>& error() const { return error_; }

  private:
    sqlite3* db_;
    sqlite3_stmt* st_ = nullptr;
    std::optional<std::string> error_;
};

}  // namespace

void UntrustedSqlite::harden(sqlite3* db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
    // Refused by problem() where our queries would reach them; off besides,
    // so one we let through (on a table nobody reads) can never run.
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
    for (auto [id, value] : kLimits) sqlite3_limit(db, id, value);
}

std::optional<std::string> UntrustedSqlite::problem(sqlite3* db, TableFilter reads,
                                                    const std::vector<std::string>& checked) {
    if (auto p = schema_problem(db, reads)) return p;
    // quick_check(1): every page and record well-formed, stopping at the first
    // error (it skips only the index-content cross-check of integrity_check).
    return checked.empty() ? integrity_problem(db, "PRAGMA quick_check(1)")
                           : tables_problem(db, checked);
}

std::optional<std::string> UntrustedSqlite::tables_problem(sqlite3* db,
                                                           const std::vector<std::string>& tables) {
    for (const auto& table : tables) {
        // A table the file lacks (an older version) has nothing to check; the
        // caller's own queries decide whether that is an error.
        Query q(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
        if (q.get() == nullptr) return "cannot read the schema (" + q.error().value_or("") + ")";
        sqlite3_bind_text(q.get(), 1, table.c_str(), -1, SQLITE_TRANSIENT);
        if (!q.step()) {
            if (q.error()) return "cannot read the schema (" + *q.error() + ")";
            continue;
        }
        if (auto p = integrity_problem(db, "PRAGMA quick_check(\"" + table + "\")")) return p;
    }
    return std::nullopt;
}

std::optional<std::string> UntrustedSqlite::schema_problem(sqlite3* db, TableFilter reads) {
    Query q(db,
            "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('trigger', 'view') "
            "OR (type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%')");
    while (q.step()) {
        std::string type = text_of(q.get(), 0), name = text_of(q.get(), 1);
        std::string table = text_of(q.get(), 2);
        if (type == "table") type = "virtual table";
        if (!reads(type == "trigger" ? table : name)) continue;
        return "refused: its schema has a " + type + " '" + name + "'" +
               (type == "trigger" ? " on table '" + table + "'" : std::string()) +
               " where the tables we read belong (a file from elsewhere must not run SQL "
               "it brings along)";
    }
    if (q.error()) return "cannot read the schema (" + *q.error() + ")";
    return std::nullopt;
}

std::optional<std::string> UntrustedSqlite::integrity_problem(sqlite3* db,
                                                              const std::string& pragma) {
    Query q(db, pragma.c_str());
    if (q.step()) {
        std::string result = text_of(q.get(), 0);
        // SQLite's report has a line per problem ("*** in database main ***\nPage 5: ...");
        // an error is one line (docs/cli.md, Exit status).
        std::replace(result.begin(), result.end(), '\n', ' ');
        if (result != "ok") return "corrupt file: integrity check failed (" + result + ")";
        return std::nullopt;
    }
    return "corrupt file: integrity check failed (" + q.error().value_or("no result") + ")";
}

}  // namespace tokenscope::store
