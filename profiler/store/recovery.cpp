#include "recovery.h"

#include <stdlib.h>

#include <system_error>

#include "connection.h"
#include "store_error.h"
#include "untrusted_sqlite.h"

namespace tokenscope::store::detail {
namespace fs = std::filesystem;

namespace {

bool non_empty(const std::string& file) {
    std::error_code ec;
    auto size = fs::file_size(file, ec);
    return !ec && size > 0;
}

}  // namespace

bool has_wal(const std::string& path) {
    return non_empty(path + "-wal");
}

bool needs_recovery(const std::string& path) {
    std::error_code ec;
    return fs::exists(path + "-wal", ec) || has_hot_journal(path);
}

bool has_hot_journal(const std::string& path) {
    return non_empty(path + "-journal");
}

namespace {

fs::path make_private_dir(const std::string& path) {
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "tokenscope-wal-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
        throw StoreError(
            path, "cannot read its -wal: no private temporary directory in " + base.string());
    return pattern;
}

void copy_or_throw(const std::string& from, const fs::path& to, const std::string& path) {
    std::error_code ec;
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec)
        throw StoreError(path,
                         "cannot copy " + from + " to read what its writer left: " + ec.message());
}

// Lets SQLite recover the copy with a writable connection (hardened as every
// untrusted file is): the first read rolls back a hot journal or rebuilds the WAL's
// index, after which the copy opens read-only as a finished file would.
void recover(const std::string& copy, const std::string& path) {
    try {
        Connection conn(copy, /*read_only=*/false);
        UntrustedSqlite::harden(conn.get());
        conn.exec("SELECT count(*) FROM sqlite_schema");
    } catch (const StoreError& e) {
        throw StoreError(path, "cannot recover what its killed writer left (" + e.problem() + ")");
    }
}

}  // namespace

RecoveredCopy::RecoveredCopy(const std::string& path) : dir_(make_private_dir(path)) {
    fs::path copy = dir_ / fs::path(path).filename();
    try {
        copy_or_throw(path, copy, path);
        std::error_code ec;
        if (fs::exists(path + "-wal", ec))
            copy_or_throw(path + "-wal", copy.string() + "-wal", path);
        if (has_hot_journal(path))
            copy_or_throw(path + "-journal", copy.string() + "-journal", path);
        recover(copy.string(), path);
    } catch (...) {
        std::error_code ec;
        fs::remove_all(dir_, ec);
        throw;
    }
    copy_ = copy.string();
}

RecoveredCopy::~RecoveredCopy() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

}  // namespace tokenscope::store::detail
