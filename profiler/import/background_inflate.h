#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "file_source.h"
#include "json/reader.h"

namespace tokenscope::import {

// Inflates a gzip file through zlib on a thread of its own, into one buffer, while the
// caller parses what is there already: decompression and parsing overlap. libdeflate
// inflates a whole buffer several times faster than zlib, but only all at once, so a
// reader that waits for it spends its time on one core; on two, zlib's chunks keep
// ahead of a parser, and the inflate costs the reader no time at all.
//
// The buffer holds `room` bytes (the gzip trailer's size) and the JSON reader's
// padding, is left unwritten until zlib fills it (no 35 MB of zeros first: they kept
// the reader waiting 7 ms on HTA's control trace) and never moves: the caller reads
// the bytes wait_for() said are there and may change them (a window's brackets); the
// thread writes only past them. What the thread met (an ImportError from the source)
// is thrown by wait_for() and finish(). Stopped and joined by the destructor.
class BackgroundInflate {
  public:
    // The data outgrew `room` (more than one gzip member): wait_for() cannot go on.
    struct TooLarge {};

    BackgroundInflate(FileSource& source, std::size_t room);
    ~BackgroundInflate();
    BackgroundInflate(const BackgroundInflate&) = delete;
    BackgroundInflate& operator=(const BackgroundInflate&) = delete;

    char* data() { return buffer_.get(); }
    std::size_t capacity() const { return room_ + json::kPadding; }
    // Waits until `want` bytes are there or the data ended, and returns how many are
    // there (fewer than `want` only at the end, the padding after them zeroed).
    std::size_t wait_for(std::size_t want);
    // Stops the thread (the buffer stays, as it is): a reader that must read the file
    // in one piece after all inflates it again, faster, with libdeflate.
    void stop();

  private:
    void run();

    FileSource& source_;
    std::size_t room_;
    std::unique_ptr<char[]> buffer_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t produced_ = 0;  // bytes of the buffer written
    bool ended_ = false;        // the data ended (or the thread failed: error_)
    bool full_ = false;         // the buffer was full with data left
    bool stop_ = false;
    std::exception_ptr error_;
    std::thread thread_;
};

}  // namespace tokenscope::import
