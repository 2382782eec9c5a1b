#include "connection.h"

#include <sqlite3.h>

#include "schema.h"
#include "statement.h"
#include "store_error.h"
#include "untrusted_sqlite.h"

namespace tokenscope::store::detail {

Connection::Connection(const std::string& path, bool read_only, std::vector<std::string> checked)
    : path_(path) {
    open(read_only ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE));
    if (read_only) guard_untrusted(checked);
}

Connection::Connection(const std::string& path, AlreadyChecked) : path_(path) {
    open(SQLITE_OPEN_READONLY);
    UntrustedSqlite::harden(db_);
}

void Connection::open(int flags) {
    int rc = sqlite3_open_v2(path_.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw StoreError(path_, "cannot open: " + msg);
    }
    sqlite3_extended_result_codes(db_, 1);
    // A capture writer holds the write lock only briefly per commit; wait rather than fail.
    sqlite3_busy_timeout(db_, 5000);
}

// Whatever is opened read-only may come from someone else (docs/hostile-input.md). Only a file
// stamped as ours is checked further: another application's database gets check_identity's "not a
// Tokenscope file" instead, so the opener can hand it to the importer of its format.
void Connection::guard_untrusted(const std::vector<std::string>& checked) {
    UntrustedSqlite::harden(db_);
    sqlite3_stmt* st = nullptr;
    bool ours = sqlite3_prepare_v2(db_, "PRAGMA application_id", -1, &st, nullptr) == SQLITE_OK &&
                sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == kApplicationId;
    sqlite3_finalize(st);
    if (!ours) return;
    try {
        check(checked);
    } catch (const StoreError&) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw;
    }
}

void Connection::check(const std::vector<std::string>& tables) const {
    // Every table of a .tokenscope file is read by some query, and the format has no
    // trigger, view or virtual table at all.
    auto problem = UntrustedSqlite::problem(
        db_, [](std::string_view) { return true; }, tables);
    if (problem) throw StoreError(path_, *problem);
}

Connection::~Connection() {
    sqlite3_close_v2(db_);
}

void Connection::exec(const char* sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errmsg(db_);
        sqlite3_free(err);
        fail(msg);
    }
}

long long Connection::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_);
}

bool Connection::in_transaction() const {
    return sqlite3_get_autocommit(db_) == 0;
}

void Connection::rollback() const noexcept {
    if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool Connection::try_exec(const char* sql) const noexcept {
    return sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
}

long long Connection::query_int(const char* sql) const {
    Statement st(*this, sql);
    return st.step() ? st.int64(0) : 0;
}

void Connection::fail(std::string_view what) const {
    int code = sqlite3_errcode(db_) & 0xff;
    if (code == SQLITE_NOTADB) throw StoreError(path_, "not a SQLite database");
    if (code == SQLITE_CORRUPT) throw StoreError(path_, "corrupt file: " + std::string(what));
    if (code == SQLITE_FULL)
        throw StoreError(path_, "disk full while writing; what was committed before is kept");
    throw StoreError(path_, std::string(what));
}

}  // namespace tokenscope::store::detail
