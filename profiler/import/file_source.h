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

// Reads a trace file plain or gzip-compressed. Gzip is recognised by its magic
// bytes, not by the extension; concatenated gzip members (pigz, log rotation)
// read as one stream. A gzip file whose compressed and decompressed bytes
// together fit half the import's memory budget (trace::MemoryBudget) is
// inflated whole by libdeflate, two to three times zlib's speed, when its data
// is first asked for; a larger one, one whose size the trailer cannot tell, or
// one libdeflate refuses, streams through zlib in chunks, so a multi-GB trace
// never has to sit in memory, and a damaged one is reported by zlib with its
// byte offset. Every failure is an ImportError naming the file.
class FileSource {
  public:
    static constexpr std::size_t kDefaultChunk = std::size_t{1} << 20;

    explicit FileSource(const std::string& path, std::size_t chunk_size = kDefaultChunk);
    ~FileSource();
    FileSource(const FileSource&) = delete;
    FileSource& operator=(const FileSource&) = delete;

    // Up to n bytes of the decompressed start; does not consume them (nor
    // inflate the whole file: a format sniffer pays for the head only).
    std::string_view head(std::size_t n = 4096);
    // The next piece of decompressed data (at most the chunk size); empty once
    // everything was read. Valid until the next call.
    std::string_view next_chunk();
    // The rest of the file, decompressed; reports progress in file bytes.
    std::string read_all(const trace::ProgressFn& progress = {});
    // The whole decompressed file in `out`, its capacity reaching 64 bytes past its
    // size (simdjson reads ahead), when nothing was handed out yet and the file fits
    // the share of the memory budget a whole buffer may take (a plain file: half the
    // budget; gzip: see above) and `max_bytes`; false (nothing taken) otherwise.
    bool take_whole(std::string& out, std::uint64_t max_bytes);

    // The decompressed size a gzip file that would be inflated whole is expected to
    // have (its trailer's, or a guess that may grow), 0 for a file that would stream
    // or was read from already; stream_instead() makes it stream through zlib anyway,
    // so its chunks can be parsed while the rest inflates (BackgroundInflate).
    std::uint64_t whole_size_guess() const {
        return whole_ && !whole_done_ && handed_ == 0 ? whole_guess_ : 0;
    }
    void stream_instead() { whole_ = false; }
    // Gzip only, streaming, nothing handed out by next_chunk(): inflates the next bytes
    // straight into out[0, room) and returns how many, 0 at the end of the data.
    std::size_t inflate_into(char* out, std::size_t room);

    const std::string& path() const { return path_; }
    bool is_gzip() const { return gzip_; }
    std::int64_t file_size() const { return file_size_; }  // bytes on disk
    // Bytes on disk read so far; for a file inflated whole, the share of the
    // file that the data handed out so far stands for, so progress still moves.
    std::int64_t file_consumed() const;
    std::int64_t decompressed() const { return produced_; }  // bytes handed out or peeked
    // Whether libdeflate inflated the file whole (known once data was asked for).
    bool inflated_whole() const { return whole_done_; }

  private:
    std::size_t pending_size() const { return pending_.size() - pending_pos_; }
    bool fill();  // appends decompressed bytes to pending_; false at end of data
    bool fill_gzip();
    bool refill_input();  // appends raw bytes to in_; false at end of file
    bool at_member_start();
    bool inflate_whole();  // libdeflate; false (nothing changed) when it cannot
    std::string read_raw_file() const;
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
    void* zstream_ = nullptr;  // z_stream, kept opaque so zlib.h stays private
    bool member_open_ = false;
    // Inflating whole: decided when the file is opened, done at the first next_chunk
    // or read_all (a head peek streams); whole_done_ once pending_ holds everything.
    bool whole_ = false;
    bool whole_done_ = false;
    std::uint64_t whole_guess_ = 0;  // the output buffer to start with
    std::uint64_t whole_limit_ = 0;  // the most it may grow to
    std::int64_t handed_ = 0;        // decompressed bytes handed out
    std::uint64_t share_ = 0;        // the part of the memory budget a whole buffer may take
};

}  // namespace tokenscope::import
