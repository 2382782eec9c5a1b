#include "nsys_database.h"

#include <array>

#include "import/import_error.h"
#include "store/untrusted_sqlite.h"

namespace tokenscope::import {
namespace {

// URI-escapes a path so characters like '?' or '#' in a file name survive.
std::string file_uri(const std::string& path) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 15];
        }
    }
    // immutable=1: no locks and no -wal/-shm files next to a file we must not touch.
    return uri + "?mode=ro&immutable=1";
}

// The table families our queries read (activities, NVTX, strings, threads,
// target and export info, enums, GPU metrics): a trigger, view or virtual table
// standing for one of them is refused.
bool read_by_importer(std::string_view table) {
    static constexpr std::array<std::string_view, 8> kPrefixes = {
        "CUPTI_",       "NVTX_",      "StringIds", "ThreadNames",
        "TARGET_INFO_", "META_DATA_", "ENUM_",     "GPU_METRICS"};
    for (auto p : kPrefixes)
        if (table.starts_with(p)) return true;
    return false;
}

}  // namespace

NsysDatabase::NsysDatabase(const std::string& path, Checks checks) : path_(path) {
    int rc = sqlite3_open_v2(file_uri(path).c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                             nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw ImportError(path, "cannot open as SQLite: " + msg);
    }
    store::UntrustedSqlite::harden(db_);
    try {
        if (checks == Checks::Full) verify();
        load_tables();
    } catch (...) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

NsysDatabase::~NsysDatabase() {
    sqlite3_close(db_);
}

void NsysDatabase::verify() const {
    if (auto problem = store::UntrustedSqlite::problem(db_, read_by_importer))
        throw ImportError(path_, *problem);
}

void NsysDatabase::load_tables() {
    for_each_row("SELECT name FROM sqlite_master WHERE type IN ('table','view')",
                 [this](sqlite3_stmt* s) {
                     const auto* text = sqlite3_column_text(s, 0);
                     if (text != nullptr) tables_.emplace(reinterpret_cast<const char*>(text));
                     return true;
                 });
}

sqlite3_stmt* NsysDatabase::prepare(const std::string& sql) const {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
        std::string msg = sqlite3_errmsg(db_);
        sqlite3_finalize(stmt);
        throw ImportError(path_, "malformed Nsight Systems database (" + msg + ")");
    }
    return stmt;
}

void NsysDatabase::finish(sqlite3_stmt* stmt, int rc, const std::string& sql) const {
    sqlite3_finalize(stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        throw ImportError(path_, std::string("cannot read the database (") + sqlite3_errstr(rc) +
                                     ") in: " + sql.substr(0, 80));
}

bool NsysDatabase::has_table(std::string_view table) const {
    return tables_.contains(std::string(table));
}

bool NsysDatabase::has_column(std::string_view table, std::string_view column) const {
    if (!has_table(table)) return false;
    std::string t(table), c(column);
    return sqlite3_table_column_metadata(db_, nullptr, t.c_str(), c.c_str(), nullptr, nullptr,
                                         nullptr, nullptr, nullptr) == SQLITE_OK;
}

std::string NsysDatabase::column_or(std::string_view table, std::string_view column,
                                    std::string_view fallback) const {
    return std::string(has_column(table, column) ? column : fallback);
}

std::int64_t NsysDatabase::count_rows(std::string_view table) const {
    if (!has_table(table)) return 0;
    std::int64_t n = 0;
    for_each_row("SELECT COUNT(*) FROM " + std::string(table), [&n](sqlite3_stmt* s) {
        n = sqlite3_column_int64(s, 0);
        return false;
    });
    return n;
}

}  // namespace tokenscope::import
