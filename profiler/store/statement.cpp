#include "statement.h"

#include <sqlite3.h>

#include "connection.h"

namespace tokenscope::store::detail {

Statement::Statement(const Connection& conn, const char* sql) : conn_(conn) {
    if (sqlite3_prepare_v3(conn.get(), sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr) !=
        SQLITE_OK)
        conn.fail(sqlite3_errmsg(conn.get()));
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement& Statement::bind_int(int i, std::int64_t v) {
    sqlite3_bind_int64(stmt_, i, v);
    return *this;
}

Statement& Statement::bind_optional(int i, std::optional<std::int64_t> v) {
    if (v)
        sqlite3_bind_int64(stmt_, i, *v);
    else
        sqlite3_bind_null(stmt_, i);
    return *this;
}

Statement& Statement::bind_real(int i, double v) {
    sqlite3_bind_double(stmt_, i, v);
    return *this;
}

Statement& Statement::bind_text(int i, std::string_view v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
}

Statement& Statement::bind_blob(int i, std::span<const std::uint8_t> v) {
    sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
    return *this;
}

bool Statement::step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    std::string msg = sqlite3_errmsg(conn_.get());
    sqlite3_reset(stmt_);
    conn_.fail(msg);
}

void Statement::run() {
    step();
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::int64(int col) const {
    return sqlite3_column_int64(stmt_, col);
}

std::optional<std::int64_t> Statement::optional_int64(int col) const {
    if (sqlite3_column_type(stmt_, col) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(stmt_, col);
}

double Statement::real(int col) const {
    return sqlite3_column_double(stmt_, col);
}

std::string_view Statement::text(int col) const {
    auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
    return p ? std::string_view(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)))
             : std::string_view();
}

std::span<const std::uint8_t> Statement::blob(int col) const {
    auto* p = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, col));
    auto n = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col));
    return p ? std::span<const std::uint8_t>(p, n) : std::span<const std::uint8_t>();
}

}  // namespace tokenscope::store::detail
