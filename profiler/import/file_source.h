#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "trace/progress.h"

namespace tokenscope::import {

// The 16 bytes every SQLite database starts with: a .tokenscope file and an Nsight
// Systems export alike (which of the two, their tables tell).
inline bool is_sqlite_header(std::string_view head) {
    constexpr std::string_view kSqliteMagic("SQLite format 3\0", 16);
    return head.starts_with(kSqliteMagic);
}

// Reads a trace file plain or gzip-compressed, in chunks, so a multi-GB trace
// never has to sit in memory twice. Gzip is recognised by its magic bytes, not
// by the extension; concatenated gzip members (pigz, log rotation) read as one
// stream. Every failure is an ImportError naming the file.
class FileSource {
  public:
    static constexpr std::size_t kDefaultChunk = std::size_t{1} << 20;

    explicit FileSource(const std::string& path, std::size_t chunk_size = kDefaultChunk);
    ~FileSource();
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    // Up to n bytes of the decompressed start; does not consume them.
    std::string_view head(std::size_t n = 4096);
    // The next piece of decompressed data; empty once everything was read.
    std::string_view next_chunk();
    // The rest of the file, decompressed; reports progress in file bytes.
    std::string read_all(const trace::ProgressFn& progress = {});

    const std::string& path() const { return path_; }
    bool is_gzip() const { return gzip_; }
    std::int64_t file_size() const { return file_size_; }     // bytes on disk
    std::int64_t file_consumed() const { return consumed_; }  // bytes on disk read so far
    std::int64_t decompressed() const { return produced_; }   // bytes handed out or peeked

  private:
    std::size_t pending_size() const { return pending_.size() - pending_pos_; }
    bool fill();  // appends decompressed bytes to pending_; false at end of data
    bool fill_gzip();
    bool refill_input();  // appends raw bytes to in_; false at end of file
    bool at_member_start();
    [[noreturn]] void fail(const std::string& problem) const;

    std::string path_;
    std::size_t chunk_;
    int fd_ = -1;
    bool gzip_ = false;
    bool raw_eof_ = false;  // the file itself is exhausted
    std::int64_t file_size_ = 0;
    std::int64_t consumed_ = 0;
    std::int64_t produced_ = 0;
    std::string in_;  // raw bytes not yet given to zlib
    std::size_t in_pos_ = 0;
    std::string pending_;  // decompressed bytes not yet handed out
    std::size_t pending_pos_ = 0;
    std::string out_;          // buffer returned by next_chunk
    void* zstream_ = nullptr;  // z_stream, kept opaque so zlib.h stays private
    bool member_open_ = false;
};

}  // namespace tokenscope::import
