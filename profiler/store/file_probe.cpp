#include "file_probe.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "recovery.h"
#include "store_error.h"

namespace tokenscope::store::detail {
namespace {

constexpr std::size_t kHeaderSize = 100;
constexpr char kMagic[] = "SQLite format 3";  // 16 bytes with its NUL

std::uint32_t be32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
           std::uint32_t{p[3]};
}

// The header's page count is only trustworthy when "version-valid-for" (offset 92)
// equals the change counter (offset 24); SQLite's own rule.
void check_length(const std::string& path, const unsigned char* h, std::uintmax_t size) {
    std::uint32_t page_size = (std::uint32_t{h[16]} << 8) | h[17];
    if (page_size == 1) page_size = 65536;
    std::uint32_t pages = be32(h + 28);
    if (be32(h + 92) != be32(h + 24) || pages == 0) return;
    std::uintmax_t expected = std::uintmax_t{pages} * page_size;
    if (size < expected)
        throw StoreError(path, "truncated file (" + std::to_string(size) + " bytes, header says " +
                                   std::to_string(expected) + ")");
}

}  // namespace

void probe_file(const std::string& path, bool allow_missing) {
    std::error_code ec;
    auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) {
        if (allow_missing) return;
        throw StoreError(path, "file not found");
    }
    if (std::filesystem::is_directory(status)) throw StoreError(path, "is a directory, not a file");
    std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw StoreError(path, "cannot read: " + ec.message());
    // A writer may start a new store in an empty file; a reader has nothing to read.
    if (size == 0) {
        if (allow_missing) return;
        throw StoreError(path, "empty file (0 bytes)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw StoreError(path, "cannot open for reading");
    std::array<unsigned char, kHeaderSize> header{};
    in.read(reinterpret_cast<char*>(header.data()), kHeaderSize);
    auto got = static_cast<std::size_t>(in.gcount());
    std::size_t magic_len = std::min(got, sizeof kMagic);
    if (std::memcmp(header.data(), kMagic, magic_len) != 0)
        throw StoreError(path, "not a SQLite database (no SQLite header)");
    if (got < kHeaderSize)
        throw StoreError(path, "truncated file (" + std::to_string(size) +
                                   " bytes, shorter than the SQLite header)");
    // A writer killed inside a checkpoint may leave the header's page count ahead
    // of the pages written so far (the -wal still holds them all), and one killed
    // inside a rollback-journal transaction leaves a file its journal restores.
    if (!needs_recovery(path)) check_length(path, header.data(), size);
}

}  // namespace tokenscope::store::detail
