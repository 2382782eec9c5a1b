#pragma once

#include <cstring>
#include <string>
#include <string_view>

namespace tokenscope::json {

// Where a document held whole in memory can be cut into windows that the Reader parses
// one at a time (Reader::open_window), so simdjson's structural index (four bytes per
// token, about three quarters of the text's size for a Kineto trace) stays the size of
// one window and is reused while it is in cache, instead of being written, and faulted
// in, for the whole document first.
//
// The cut is a newline: JSON allows no raw control character inside a string, so a
// newline byte is always white space between tokens, and no string or multi-byte
// character is ever split there. Returns the first newline at or after `from`, or
// std::string_view::npos when there is none (a document written on one line).
inline std::size_t newline_cut(std::string_view text, std::size_t from) {
    if (from >= text.size()) return std::string_view::npos;
    const void* nl = std::memchr(text.data() + from, '\n', text.size() - from);
    return nl == nullptr ? std::string_view::npos
                         : static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
}

// A document held in memory to be read in windows: its bytes, which the windows may
// change (a window borrows bytes at its edges), and how many are readable from `data`
// (the document and simdjson's padding after it).
struct TextBuffer {
    char* data = nullptr;
    std::size_t capacity = 0;
};

// Sets text[at] to `c` for its lifetime and puts the byte back after: a window borrows
// the white space (or separator) at its edges for the brackets that make it one
// document.
class BytePatch {
  public:
    BytePatch(char* text, std::size_t at, char c) : byte_(text + at), saved_(*byte_) { *byte_ = c; }
    ~BytePatch() { *byte_ = saved_; }
    BytePatch(const BytePatch&) = delete;
    BytePatch& operator=(const BytePatch&) = delete;

  private:
    char* byte_;
    char saved_;
};

}  // namespace tokenscope::json
