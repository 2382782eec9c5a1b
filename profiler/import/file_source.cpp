#include "file_source.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "import_error.h"
#include "json/reader.h"
#include "trace/memory_budget.h"

namespace tokenscope::import {
namespace {

z_stream* zs(void* p) {
    return static_cast<z_stream*>(p);
}

bool is_gzip_magic(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// Bytes kept allocated past the end of a whole buffer: simdjson's read-ahead, the
// JSON layer's kPadding, so the reader that looks ahead stays inside it.
constexpr std::size_t kWholePadding = json::kPadding;
// DEFLATE expands at most 1032:1, so no gzip file inflates to more than this many
// times its size, whatever its trailer claims.
constexpr std::uint64_t kMaxInflateRatio = 1032;

struct DecompressorDeleter {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

}  // namespace

FileSource::FileSource(const std::string& path, std::size_t chunk_size)
    : path_(path), chunk_(chunk_size == 0 ? kDefaultChunk : chunk_size) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail(std::string("cannot stat: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail("is a directory, not a trace file");
    file_size_ = static_cast<std::int64_t>(st.st_size);
    if (!refill_input() || in_.empty()) fail("empty file");
    gzip_ = is_gzip_magic(in_);
    if (gzip_) {
        auto* z = new z_stream{};
        // 16 + MAX_WBITS: gzip wrapper only, so a zlib or raw stream is reported as corrupt.
        if (inflateInit2(z, 16 + MAX_WBITS) != Z_OK) {
            delete z;
            fail("cannot initialise zlib");
        }
        zstream_ = z;
    }
    if (!S_ISREG(st.st_mode)) return;
    share_ = trace::MemoryBudget(path_).limit() / 2;
    if (!gzip_ || file_size_ < 20) return;
    // Inflate whole when the compressed and decompressed bytes fit half the budget
    // (the other half is the import's). The trailer's ISIZE is the last member's size
    // modulo 4 GiB: exact for the usual one member, else a guess that may grow.
    const std::uint64_t c = static_cast<std::uint64_t>(file_size_);
    unsigned char tail[4] = {};
    if (::pread(fd_, tail, 4, static_cast<off_t>(file_size_ - 4)) != 4) return;
    const std::uint64_t isize = std::uint64_t{tail[0]} | std::uint64_t{tail[1]} << 8 |
                                std::uint64_t{tail[2]} << 16 | std::uint64_t{tail[3]} << 24;
    if (share_ <= c) return;
    whole_limit_ = std::min(share_ - c, c * kMaxInflateRatio);
    // An incompressible member still inflates to about its own size, never much less.
    const bool plausible = isize + 64 + c / 100 >= c && isize <= c * kMaxInflateRatio;
    if (plausible && isize > whole_limit_) return;  // it says it does not fit
    whole_guess_ = plausible ? std::max<std::uint64_t>(isize, 1) : std::min(c * 8, whole_limit_);
    whole_ = whole_guess_ <= whole_limit_;
}

FileSource::~FileSource() {
    if (zstream_ != nullptr) {
        inflateEnd(zs(zstream_));
        delete zs(zstream_);
    }
    if (fd_ >= 0) ::close(fd_);
}

void FileSource::fail(const std::string& problem) const {
    throw ImportError(path_, problem);
}

bool FileSource::refill_input() {
    if (raw_eof_) return false;
    if (in_pos_ > 0) {
        in_.erase(0, in_pos_);
        in_pos_ = 0;
    }
    std::size_t old = in_.size();
    in_.resize(old + chunk_);
    ssize_t got;
    do {
        got = ::read(fd_, in_.data() + old, chunk_);
    } while (got < 0 && errno == EINTR);
    if (got < 0) fail(std::string("read error: ") + std::strerror(errno));
    in_.resize(old + static_cast<std::size_t>(got));
    consumed_ += got;
    if (got == 0) raw_eof_ = true;
    return got > 0;
}

std::int64_t FileSource::file_consumed() const {
    if (!whole_done_) return consumed_;
    if (handed_ >= produced_) return file_size_;
    return static_cast<std::int64_t>(static_cast<double>(file_size_) *
                                     static_cast<double>(handed_) / static_cast<double>(produced_));
}

std::string FileSource::read_raw_file() const {
    std::string raw;
    raw.reserve(static_cast<std::size_t>(file_size_) + kWholePadding);
    raw.resize(static_cast<std::size_t>(file_size_));
    std::size_t got = 0;
    while (got < raw.size()) {
        ssize_t n = ::pread(fd_, raw.data() + got, raw.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(std::string("read error: ") + std::strerror(errno));
        if (n == 0) break;  // shrank while open: what is there, the rest is reported as cut
        got += static_cast<std::size_t>(n);
    }
    raw.resize(got);
    return raw;
}

// Every member at once with libdeflate into one buffer. Anything it does not take
// (damage, data after a member, a buffer that would outgrow the budget) leaves the
// source as it was, to be streamed by zlib, which then reports the damage in its
// words and at its byte. Only called before any data was handed out.
bool FileSource::inflate_whole() {
    std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> d(
        libdeflate_alloc_decompressor());
    if (!d) return false;
    const std::string raw = read_raw_file();
    std::uint64_t cap = whole_guess_;
    std::string out;
    out.reserve(static_cast<std::size_t>(cap) + kWholePadding);
    out.resize(static_cast<std::size_t>(cap) + kWholePadding);
    std::size_t in_at = 0, out_at = 0;
    while (in_at < raw.size()) {
        std::string_view rest(raw.data() + in_at, raw.size() - in_at);
        if (!is_gzip_magic(rest)) {
            // Zero padding after the last member (tape blocks) is accepted.
            if (rest.find_first_not_of('\0') != std::string_view::npos) return false;
            break;
        }
        std::size_t in_used = 0, out_used = 0;
        libdeflate_result r = libdeflate_gzip_decompress_ex(
            d.get(), rest.data(), rest.size(), out.data() + out_at,
            static_cast<std::size_t>(cap) - out_at, &in_used, &out_used);
        if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
            if (cap >= whole_limit_) return false;
            cap = std::min(cap * 2, whole_limit_);
            out.resize(static_cast<std::size_t>(cap) + kWholePadding);
            continue;  // this member again, into the larger buffer
        }
        if (r != LIBDEFLATE_SUCCESS || in_used == 0) return false;
        in_at += in_used;
        out_at += out_used;
    }
    out.resize(out_at);  // the capacity keeps the padding
    pending_ = std::move(out);
    pending_pos_ = 0;
    produced_ = static_cast<std::int64_t>(out_at);
    consumed_ = file_size_;
    whole_done_ = true;
    return true;
}

bool FileSource::fill() {
    if (pending_pos_ > 0) {
        pending_.erase(0, pending_pos_);
        pending_pos_ = 0;
    }
    if (whole_done_) return false;
    if (gzip_) return fill_gzip();
    if (in_pos_ == in_.size() && !refill_input()) return false;
    pending_.append(in_, in_pos_, std::string::npos);
    produced_ += static_cast<std::int64_t>(in_.size() - in_pos_);
    in_.clear();
    in_pos_ = 0;
    return true;
}

// At a member boundary: true if another gzip member follows. Zero padding
// after the last member (tape blocks) is accepted, anything else is an error.
bool FileSource::at_member_start() {
    while (in_.size() - in_pos_ < 2 && refill_input()) {
    }
    std::string_view rest(in_.data() + in_pos_, in_.size() - in_pos_);
    if (rest.empty()) return false;
    if (is_gzip_magic(rest)) {
        inflateReset(zs(zstream_));
        member_open_ = true;
        return true;
    }
    do {
        for (char c : std::string_view(in_.data() + in_pos_, in_.size() - in_pos_))
            if (c != 0)
                fail("corrupt gzip stream: unexpected data after member at byte " +
                     std::to_string(consumed_ - static_cast<std::int64_t>(in_.size() - in_pos_)));
        in_pos_ = in_.size();
    } while (refill_input());
    return false;
}

bool FileSource::fill_gzip() {
    const std::size_t at = pending_.size();
    pending_.resize(at + chunk_);
    const std::size_t n = inflate_into(pending_.data() + at, chunk_);
    pending_.resize(at + n);
    return n > 0;
}

std::size_t FileSource::inflate_into(char* out, std::size_t room) {
    z_stream* z = zs(zstream_);
    for (;;) {
        if (!member_open_ && !at_member_start()) return 0;
        if (in_pos_ == in_.size() && !refill_input())
            fail("truncated gzip stream at byte " + std::to_string(consumed_));
        std::size_t avail = in_.size() - in_pos_;
        z->next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
        z->avail_in = static_cast<uInt>(avail);
        z->next_out = reinterpret_cast<Bytef*>(out);
        z->avail_out = static_cast<uInt>(room);
        int rc = inflate(z, Z_NO_FLUSH);
        in_pos_ += avail - z->avail_in;
        const std::size_t n = room - z->avail_out;
        if (rc == Z_STREAM_END) {
            member_open_ = false;
        } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR) {
            std::int64_t at = consumed_ - static_cast<std::int64_t>(in_.size() - in_pos_);
            fail("corrupt gzip stream at byte " + std::to_string(at) + " (" +
                 (z->msg != nullptr ? z->msg : "inflate error") + ")");
        }
        // Z_BUF_ERROR only means no progress with the input at hand: read more.
        if (n > 0) {
            produced_ += static_cast<std::int64_t>(n);
            return n;
        }
    }
}

std::string_view FileSource::head(std::size_t n) {
    while (pending_size() < n && fill()) {
    }
    return std::string_view(pending_.data() + pending_pos_, std::min(n, pending_size()));
}

std::string_view FileSource::next_chunk() {
    if (whole_ && !whole_done_ && !inflate_whole()) whole_ = false;
    if (pending_size() == 0 && !fill()) return {};
    std::size_t n = std::min(chunk_, pending_size());
    std::string_view piece(pending_.data() + pending_pos_, n);
    pending_pos_ += n;
    handed_ += static_cast<std::int64_t>(n);
    return piece;
}

bool FileSource::take_whole(std::string& out, std::uint64_t max_bytes) {
    if (handed_ > 0) return false;
    if (!gzip_) {
        const auto size = static_cast<std::uint64_t>(file_size_);
        if (share_ == 0 || size > share_ || size > max_bytes) return false;
        std::string text = read_raw_file();  // padded
        produced_ = handed_ = static_cast<std::int64_t>(text.size());
        consumed_ = file_size_;
        raw_eof_ = true;
        in_.clear();
        in_pos_ = 0;
        pending_.clear();
        pending_pos_ = 0;
        out = std::move(text);
        return true;
    }
    if (whole_ && !whole_done_ && !inflate_whole()) whole_ = false;
    if (!whole_done_ || static_cast<std::uint64_t>(produced_) > max_bytes) return false;
    out = std::move(pending_);
    pending_.clear();
    pending_pos_ = 0;
    handed_ = produced_;
    return true;
}

std::string FileSource::read_all(const trace::ProgressFn& progress) {
    if (whole_ && !whole_done_ && !inflate_whole()) whole_ = false;
    if (whole_done_) {
        std::string all = pending_pos_ == 0 ? std::move(pending_) : pending_.substr(pending_pos_);
        pending_.clear();
        pending_pos_ = 0;
        handed_ = produced_;
        if (progress && !progress(file_size_, file_size_)) throw trace::Cancelled();
        return all;
    }
    std::string all;
    if (!gzip_) all.reserve(static_cast<std::size_t>(file_size_));
    for (std::string_view piece = next_chunk(); !piece.empty(); piece = next_chunk()) {
        all.append(piece);
        if (progress && !progress(consumed_, file_size_)) throw trace::Cancelled();
    }
    return all;
}

}  // namespace tokenscope::import
