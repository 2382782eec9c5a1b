#include "file_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "import_error.h"

namespace tokenscope::import {
namespace {

z_stream* zs(void* p) {
    return static_cast<z_stream*>(p);
}

bool is_gzip_magic(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

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

bool FileSource::fill() {
    if (pending_pos_ > 0) {
        pending_.erase(0, pending_pos_);
        pending_pos_ = 0;
    }
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
    z_stream* z = zs(zstream_);
    std::size_t before = pending_.size();
    while (pending_.size() == before) {
        if (!member_open_ && !at_member_start()) return false;
        if (in_pos_ == in_.size() && !refill_input())
            fail("truncated gzip stream at byte " + std::to_string(consumed_));
        std::size_t avail = in_.size() - in_pos_;
        z->next_in = reinterpret_cast<Bytef*>(in_.data() + in_pos_);
        z->avail_in = static_cast<uInt>(avail);
        std::size_t out_at = pending_.size();
        pending_.resize(out_at + chunk_);
        z->next_out = reinterpret_cast<Bytef*>(pending_.data() + out_at);
        z->avail_out = static_cast<uInt>(chunk_);
        int rc = inflate(z, Z_NO_FLUSH);
        in_pos_ += avail - z->avail_in;
        pending_.resize(out_at + chunk_ - z->avail_out);
        if (rc == Z_STREAM_END) {
            member_open_ = false;
        } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR) {
            std::int64_t at = consumed_ - static_cast<std::int64_t>(in_.size() - in_pos_);
            fail("corrupt gzip stream at byte " + std::to_string(at) + " (" +
                 (z->msg != nullptr ? z->msg : "inflate error") + ")");
        }
        // Z_BUF_ERROR only means no progress with the input at hand: read more.
    }
    produced_ += static_cast<std::int64_t>(pending_.size() - before);
    return true;
}

std::string_view FileSource::head(std::size_t n) {
    while (pending_size() < n && fill()) {
    }
    return std::string_view(pending_.data() + pending_pos_, std::min(n, pending_size()));
}

std::string_view FileSource::next_chunk() {
    if (pending_size() == 0 && !fill()) return {};
    out_.assign(pending_, pending_pos_, std::string::npos);
    pending_.clear();
    pending_pos_ = 0;
    return out_;
}

std::string FileSource::read_all(const trace::ProgressFn& progress) {
    std::string all;
    if (!gzip_) all.reserve(static_cast<std::size_t>(file_size_));
    for (std::string_view piece = next_chunk(); !piece.empty(); piece = next_chunk()) {
        all.append(piece);
        if (progress && !progress(consumed_, file_size_)) throw trace::Cancelled();
    }
    return all;
}

}  // namespace tokenscope::import
