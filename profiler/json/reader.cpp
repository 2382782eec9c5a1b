#include "reader.h"

#include <cstring>

namespace tokenscope::json {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The four hex digits at s[0..3], or -1.
int hex4(std::string_view s) {
    if (s.size() < 4) return -1;
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hex_value(s[static_cast<std::size_t>(i)]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

// Writes code point `cp` as UTF-8 at `w` (at most 4 bytes) and moves `w` past it.
void write_utf8(char*& w, std::uint32_t cp) {
    auto put = [&w](std::uint32_t byte) { *w++ = static_cast<char>(byte); };
    if (cp < 0x80) {
        put(cp);
    } else if (cp < 0x800) {
        put(0xC0 | (cp >> 6));
        put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        put(0xE0 | (cp >> 12));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    } else {
        put(0xF0 | (cp >> 18));
        put(0x80 | ((cp >> 12) & 0x3F));
        put(0x80 | ((cp >> 6) & 0x3F));
        put(0x80 | (cp & 0x3F));
    }
}

// Length of the well-formed UTF-8 sequence at s[i] (Unicode's table 3-7: no
// overlong forms, surrogates or code points past U+10FFFF), 0 when there is none.
std::size_t utf8_length(std::string_view s, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char b = byte(i);
    if (b < 0x80) return 1;
    std::size_t n = b >= 0xC2 && b <= 0xDF   ? 2
                    : b >= 0xE0 && b <= 0xEF ? 3
                    : b >= 0xF0 && b <= 0xF4 ? 4
                                             : 0;
    if (n == 0 || i + n > s.size()) return 0;
    const unsigned char b1 = byte(i + 1);
    unsigned char lo = 0x80, hi = 0xBF;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
    if (b1 < lo || b1 > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
    return n;
}

// Every byte that starts no well-formed sequence becomes '?', in place.
void replace_bad_utf8(char* data, std::size_t size) {
    const std::string_view text(data, size);
    for (std::size_t i = 0; i < size;) {
        const std::size_t n = utf8_length(text, i);
        if (n == 0) {
            data[i++] = '?';
        } else {
            i += n;
        }
    }
}

}  // namespace

void pad(std::string& text) {
    if (text.capacity() < text.size() + kPadding) text.reserve(text.size() + kPadding);
}

od::document& Reader::open(std::string& text, std::uint64_t base) {
    base_ = base;
    diagnose_ = true;
    pad(text);
    return iterate(text.data(), text.size(), text.capacity());
}

od::document& Reader::open_window(char* text, std::size_t begin, std::size_t end,
                                  std::size_t capacity) {
    base_ = begin;
    diagnose_ = false;
    return iterate(text + begin, end - begin, capacity - begin);
}

od::document& Reader::iterate(char* data, std::size_t size, std::size_t capacity) {
    text_ = std::string_view(data, size);
    used_ = 0;
    auto result = parser_.iterate(data, size, capacity);
    if (result.error() == simdjson::UTF8_ERROR) {
        replace_bad_utf8(data, size);
        result = parser_.iterate(data, size, capacity);
    }
    if (result.error() != simdjson::SUCCESS) {
        doc_ = od::document();
        open_ = false;
        fail(result.error());
    }
    doc_ = std::move(result).value_unsafe();
    open_ = true;
    return doc_;
}

void Reader::fail(simdjson::error_code code) {
    // A window is expected to end inside a value: no strict scan for where.
    if (diagnose_) {
        if (auto found = diagnose(text_, base_)) throw *found;
    }
    // simdjson refused what the strict scan accepts (nesting past its depth limit, a
    // document past its 4 GiB, a number it cannot hold), or a window ran out.
    throw SyntaxError(offset(), simdjson::error_message(code), false);
}

std::uint64_t Reader::offset() {
    const char* at = nullptr;
    if (!open_ || doc_.current_location().get(at) != simdjson::SUCCESS) return base_ + text_.size();
    return base_ + static_cast<std::uint64_t>(at - text_.data());
}

void Reader::expect_end() {
    const char* at = nullptr;
    if (doc_.current_location().get(at) == simdjson::SUCCESS)
        throw SyntaxError(base_ + static_cast<std::uint64_t>(at - text_.data()),
                          "unexpected data after the document", false);
}

// A key with a backslash before its first quote: its end is the first quote no
// backslash escapes.
std::string_view Reader::escaped_key(const char* start) {
    const char* end = text_.data() + text_.size();
    const char* q = start;
    while (true) {
        q = static_cast<const char*>(std::memchr(q, '"', static_cast<std::size_t>(end - q)));
        if (q == nullptr) fail(simdjson::STRING_ERROR);
        const char* b = q;
        while (b > start && b[-1] == '\\') --b;
        if (((q - b) & 1) == 0) break;
        ++q;
    }
    return unescape(std::string_view(start, static_cast<std::size_t>(q - start)));
}

void Reader::check_number(std::string_view text) {
    if (!is_number_text(text)) fail(simdjson::NUMBER_ERROR);
}

std::string_view Reader::raw(od::value& v) {
    switch (type(v)) {
        case od::json_type::object: {
            od::object o = get(v.get_object());
            return get(o.raw_json());
        }
        case od::json_type::array: {
            od::array a = get(v.get_array());
            return get(a.raw_json());
        }
        default:
            return trim_end(v.raw_json_token());
    }
}

// The body of a string holding escapes; a lone surrogate becomes U+FFFD.
std::string_view Reader::unescape(std::string_view body) {
    if (used_ == scratch_.size()) scratch_.emplace_back();
    std::string& out = scratch_[used_++];
    // Written through a pointer into room for the whole body (unescaping never
    // lengthens): appending a byte at a time to the string was two thirds of reading
    // GenAI-Perf's export, whose streamed chunks are JSON inside JSON strings.
    out.resize(body.size());
    char* w = out.data();
    for (std::size_t i = 0; i < body.size();) {
        const char c = body[i++];
        if (c != '\\') {
            *w++ = c;
            continue;
        }
        if (i == body.size()) fail(simdjson::STRING_ERROR);
        const char e = body[i++];
        switch (e) {
            case '"':
            case '\\':
            case '/':
                *w++ = e;
                break;
            case 'b':
                *w++ = '\b';
                break;
            case 'f':
                *w++ = '\f';
                break;
            case 'n':
                *w++ = '\n';
                break;
            case 'r':
                *w++ = '\r';
                break;
            case 't':
                *w++ = '\t';
                break;
            case 'u': {
                const int hi = hex4(body.substr(i));
                if (hi < 0) fail(simdjson::STRING_ERROR);
                i += 4;
                std::uint32_t cp = static_cast<std::uint32_t>(hi);
                if (cp >= 0xD800 && cp <= 0xDBFF && body.substr(i, 2) == "\\u") {
                    const int lo = hex4(body.substr(i + 2));
                    if (lo >= 0xDC00 && lo <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) +
                             (static_cast<std::uint32_t>(lo) - 0xDC00);
                        i += 6;
                    }
                }
                if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
                write_utf8(w, cp);
                break;
            }
            default:
                fail(simdjson::STRING_ERROR);
        }
    }
    out.resize(static_cast<std::size_t>(w - out.data()));
    return out;
}

}  // namespace tokenscope::json
