#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tokenscope::import::kineto {

// Thrown when the cursor reaches the end of the buffer before the end of the
// data: the caller refills and retries the whole unit (one trace event).
struct NeedMoreData {};

// A syntax error at an offset relative to the cursor's buffer start.
class JsonSyntaxError : public std::runtime_error {
  public:
    JsonSyntaxError(std::size_t offset, const std::string& what, bool at_end)
        : std::runtime_error(what), offset_(offset), at_end_(at_end) {}
    std::size_t offset() const { return offset_; }
    bool at_end() const { return at_end_; }  // the data ended inside a value

  private:
    std::size_t offset_;
    bool at_end_;
};

// A minimal pull tokenizer over a contiguous byte range. Strings come back as
// views into the buffer (or into scratch storage when they hold escapes) and
// numbers as their original text, so timestamps can be converted exactly.
class JsonCursor {
  public:
    JsonCursor(const char* begin, const char* end, bool final_data)
        : begin_(begin), p_(begin), end_(end), final_(final_data) {}

    // Re-points the cursor at new data (after a refill), keeping scratch storage.
    void reset(const char* begin, const char* end, bool final_data) {
        begin_ = p_ = begin;
        end_ = end;
        final_ = final_data;
        scratch_used_ = 0;
    }
    std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
    void set_offset(std::size_t off) { p_ = begin_ + off; }

    // Next non-space character without consuming it. Inline: it runs once per token.
    char peek() {
        if (p_<end_&& static_cast<unsigned char>(*p_)> ' ') return *p_;
        skip_ws();
        return *p_;
    }
    void expect(char c) {
        if (peek() != c) expected(c);
        ++p_;
    }
    // Consumes c if it is next; returns whether it did.
    bool consume(char c) {
        if (peek() != c) return false;
        ++p_;
        return true;
    }
    std::string_view string();
    std::string_view number();
    // Any value; returns its raw text.
    std::string_view skip_value();
    // Starts an object: true if it has members (the cursor is then at the first key).
    bool begin_object();
    // After a member value: true if another member follows.
    bool next_member();
    bool begin_array();
    bool next_element();
    // The key of the next member, consuming the ':' too.
    std::string_view key();
    bool literal_null();

    // Releases scratch strings used by escaped string values.
    void reset_scratch() { scratch_used_ = 0; }

    [[noreturn]] void fail(const std::string& what) const;

  private:
    void skip_ws();
    [[noreturn]] void expected(char c) const;
    [[noreturn]] void out_of_data() const;
    std::string_view unescape(const char* start);
    void skip_container();

    const char* begin_;
    const char* p_;
    const char* end_;
    bool final_;
    std::deque<std::string> scratch_;  // deque: views stay valid as it grows
    std::size_t scratch_used_ = 0;
};

}  // namespace tokenscope::import::kineto
