#pragma once

// simdjson's parser changes its layout with SIMDJSON_THREADS_ENABLED, which its CMake
// target defines (and -pthread implies): a file that includes this header without
// linking tokenscope_json (a test of a reader built on it) must see the same classes
// as the library, or their members disagree. Defined here, it always does.
#ifndef SIMDJSON_THREADS_ENABLED
#define SIMDJSON_THREADS_ENABLED 1
#endif
#include <simdjson.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>

#include "syntax_error.h"

namespace tokenscope::json {

namespace od = simdjson::ondemand;

// Bytes a document's buffer must hold readable past its end: simdjson reads ahead.
inline constexpr std::size_t kPadding = simdjson::SIMDJSON_PADDING;

// Makes text's capacity reach kPadding bytes past its size (one reallocation at most).
void pad(std::string& text);

// The one JSON reader of the project: simdjson On-Demand over a whole document in
// memory (or one slice of a larger one, see slicer.h), with the helpers every
// reader needs and one error style. Strings and numbers come back as views into the
// text where they hold no escapes, so a reader pays for what it reads; a string with
// escapes is unescaped into storage the Reader keeps until release_strings(), a lone
// UTF-16 surrogate becoming U+FFFD (names are labels). Bytes that are not UTF-8
// become '?' rather than refusing the document. A syntax error anywhere throws
// SyntaxError with the byte offset in the document and what was expected there; the
// parts of a document a reader skips are checked for their strings and nesting only.
class Reader {
  public:
    // Starts reading `text` (kept alive and unmoved by the caller, its capacity padded:
    // pad()); `base` is the offset of its first byte in the file's data, for errors.
    od::document& open(std::string& text, std::uint64_t base = 0);
    // The same over a copy of `text` the Reader keeps (and reuses), for text held elsewhere.
    od::document& open_copy(std::string_view text, std::uint64_t base = 0) {
        own_.reserve(text.size() + kPadding);
        own_.assign(text);
        return open(own_, base);
    }
    // Starts reading text[begin, end) alone, a window of a larger document (window.h),
    // `begin` being its offset in the document; text[end, capacity) must be readable:
    // simdjson reads ahead into it. A window is expected to end
    // inside a value, so failing is cheap: a SyntaxError naming simdjson's problem,
    // without the strict scan that finds a whole document's first error.
    od::document& open_window(char* text, std::size_t begin, std::size_t end, std::size_t capacity);

    // The simdjson error `code` met while reading, as a SyntaxError saying where.
    [[noreturn]] void fail(simdjson::error_code code);
    void check(simdjson::error_code code) {
        if (code != simdjson::SUCCESS) fail(code);
    }
    template <typename T>
    T get(simdjson::simdjson_result<T>&& result) {
        T out;
        check(std::move(result).get(out));
        return out;
    }
    od::json_type type(od::value& v) { return get(v.type()); }

    // A string value (type() said string).
    std::string_view string(od::value& v) { return token_string(v.raw_json_token()); }
    // A member's key.
    std::string_view key(od::field& f) {
        // Stage 1 of simdjson matched every quote of the document, so the key's
        // closing quote is in the text: the first quote, unless a backslash comes first.
        const char* start = f.key().raw();
        const char* end = text_.data() + text_.size();
        const char* q = start;
        while (q < end && *q != '"' && *q != '\\') ++q;
        if (q < end && *q == '"') return {start, static_cast<std::size_t>(q - start)};
        return escaped_key(start);
    }
    // A number's text as written (type() said number); check_number() before
    // trusting text a conversion refused.
    std::string_view number_text(od::value& v) { return trim_end(v.raw_json_token()); }
    void check_number(std::string_view text);
    // The raw text of any value, for a member kept as written.
    std::string_view raw(od::value& v);
    // Releases what string() and key() unescaped: their views of escaped text die.
    void release_strings() { used_ = 0; }

    // The document's offset where iteration stands (for progress).
    std::uint64_t offset();
    // Throws unless only white space follows the value just read (the root).
    void expect_end();

  private:
    static std::string_view trim_end(std::string_view s) {
        while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
        return s;
    }
    std::string_view token_string(std::string_view token) {
        token = trim_end(token);
        if (token.size() < 2 || token.front() != '"' || token.back() != '"')
            fail(simdjson::STRING_ERROR);
        const std::string_view body = token.substr(1, token.size() - 2);
        if (std::memchr(body.data(), '\\', body.size()) != nullptr) return unescape(body);
        return body;
    }
    std::string_view escaped_key(const char* start);
    std::string_view unescape(std::string_view body);

    od::document& iterate(char* data, std::size_t size, std::size_t capacity);

    od::parser parser_;
    od::document doc_;
    bool open_ = false;      // doc_ holds a document that simdjson accepted
    bool diagnose_ = true;   // fail() looks for the first error (not in a window)
    std::string_view text_;  // the document, or the window, being read
    std::uint64_t base_ = 0;
    std::string own_;                  // open_copy's text
    std::deque<std::string> scratch_;  // deque: views stay valid as it grows
    std::size_t used_ = 0;
};

}  // namespace tokenscope::json
