#include "background_inflate.h"

#include <algorithm>
#include <cstring>

#include "json/reader.h"

namespace tokenscope::import {
namespace {

// What zlib inflates between two reports to the reader.
constexpr std::size_t kStepBytes = std::size_t{1} << 20;

}  // namespace

BackgroundInflate::BackgroundInflate(FileSource& source, std::size_t room)
    : source_(source), room_(room), buffer_(new char[room + json::kPadding]) {
    source_.stream_instead();
    thread_ = std::thread([this] { run(); });
}

BackgroundInflate::~BackgroundInflate() {
    stop();
}

void BackgroundInflate::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    if (thread_.joinable()) thread_.join();
}

void BackgroundInflate::run() {
    char* out = buffer_.get();
    std::size_t at = 0;
    try {
        for (;;) {
            {
                std::lock_guard lock(mutex_);
                if (stop_) return;
            }
            if (at == room_) {  // full: is there more?
                char probe[1];
                if (source_.inflate_into(probe, 1) == 0) break;
                std::lock_guard lock(mutex_);
                full_ = true;
                changed_.notify_all();
                return;
            }
            const std::size_t n = source_.inflate_into(out + at, std::min(kStepBytes, room_ - at));
            if (n == 0) break;
            at += n;
            std::lock_guard lock(mutex_);
            produced_ = at;
            changed_.notify_all();
        }
    } catch (...) {
        std::lock_guard lock(mutex_);
        error_ = std::current_exception();
    }
    std::memset(out + at, 0, json::kPadding);  // what simdjson reads past the end
    std::lock_guard lock(mutex_);
    ended_ = true;
    changed_.notify_all();
}

std::size_t BackgroundInflate::wait_for(std::size_t want) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return produced_ >= want || ended_ || full_; });
    if (error_) std::rethrow_exception(error_);
    if (produced_ < want && full_) throw TooLarge();
    return produced_;
}

}  // namespace tokenscope::import
