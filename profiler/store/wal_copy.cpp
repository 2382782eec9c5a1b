#include "wal_copy.h"

#include <stdlib.h>

#include <system_error>

#include "store_error.h"

namespace tokenscope::store::detail {
namespace fs = std::filesystem;

bool has_wal(const std::string& path) {
    std::error_code ec;
    auto size = fs::file_size(path + "-wal", ec);
    return !ec && size > 0;
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
    if (ec) throw StoreError(path, "cannot copy " + from + " to read its -wal: " + ec.message());
}

}  // namespace

WalCopy::WalCopy(const std::string& path) : dir_(make_private_dir(path)) {
    fs::path copy = dir_ / fs::path(path).filename();
    try {
        copy_or_throw(path, copy, path);
        copy_or_throw(path + "-wal", copy.string() + "-wal", path);
    } catch (...) {
        std::error_code ec;
        fs::remove_all(dir_, ec);
        throw;
    }
    copy_ = copy.string();
}

WalCopy::~WalCopy() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

}  // namespace tokenscope::store::detail
