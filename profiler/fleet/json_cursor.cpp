#include "json_cursor.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tokenscope::fleet {
namespace {

// Deeper than any Prometheus answer nests; bounds the recursion of skip_value.
constexpr int kMaxDepth = 64;

bool is_ws(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Prometheus writes sample values as Go's strconv.FormatFloat: digits, "NaN", "+Inf", "-Inf".
bool parse_float_text(std::string_view s, double& v) {
    // The common case first: a plain decimal.
    if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-')) {
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && ptr == s.data() + s.size()) return true;
    }
    if (s == "NaN") return v = std::numeric_limits<double>::quiet_NaN(), true;
    if (s == "+Inf" || s == "Inf") return v = std::numeric_limits<double>::infinity(), true;
    if (s == "-Inf") return v = -std::numeric_limits<double>::infinity(), true;
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range) {
        v = (!s.empty() && s.front() == '-') ? -std::numeric_limits<double>::infinity()
                                             : std::numeric_limits<double>::infinity();
        return ptr == s.data() + s.size();
    }
    return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

}  // namespace

void JsonCursor::fail(const std::string& what) const {
    throw JsonSyntaxError("at byte " + std::to_string(pos_) + ": " + what);
}

void JsonCursor::skip_ws() {
    while (pos_ < text_.size() && is_ws(text_[pos_])) ++pos_;
}

char JsonCursor::peek() {
    skip_ws();
    return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool JsonCursor::at_end() {
    return peek() == '\0' && pos_ >= text_.size();
}

void JsonCursor::expect(char c) {
    if (peek() != c) {
        if (pos_ >= text_.size()) fail(std::string("expected '") + c + "', got the end");
        fail(std::string("expected '") + c + "', got '" + text_[pos_] + "'");
    }
    ++pos_;
}

bool JsonCursor::consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
}

// A closed container was an element of the one around it, so that one is past its
// first element: first_ = false keeps one flag right for nested iteration.
bool JsonCursor::next_key(std::string& key) {
    if (consume('}')) return first_ = false;
    if (!first_) expect(',');
    first_ = false;
    std::string scratch;
    std::string_view k = read_string(scratch);
    key.assign(k);
    expect(':');
    return true;
}

bool JsonCursor::next_element() {
    if (consume(']')) return first_ = false;
    if (!first_) expect(',');
    first_ = false;
    return true;
}

void JsonCursor::read_escape(std::string& out) {
    if (pos_ >= text_.size()) fail("unterminated escape");
    const char e = text_[pos_++];
    switch (e) {
        case '"':
        case '\\':
        case '/':
            out += e;
            return;
        case 'b':
            out += '\b';
            return;
        case 'f':
            out += '\f';
            return;
        case 'n':
            out += '\n';
            return;
        case 'r':
            out += '\r';
            return;
        case 't':
            out += '\t';
            return;
        case 'u':
            break;
        default:
            fail(std::string("bad escape '\\") + e + "'");
    }
    auto hex4 = [&]() -> std::uint32_t {
        if (text_.size() - pos_ < 4) fail("short \\u escape");
        std::uint32_t v = 0;
        auto [ptr, ec] = std::from_chars(text_.data() + pos_, text_.data() + pos_ + 4, v, 16);
        if (ec != std::errc() || ptr != text_.data() + pos_ + 4) fail("bad \\u escape");
        pos_ += 4;
        return v;
    };
    std::uint32_t cp = hex4();
    if (cp >= 0xD800 && cp < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
        pos_ += 2;
        const std::uint32_t low = hex4();
        if (low < 0xDC00 || low > 0xDFFF) fail("bad surrogate pair");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    append_utf8(out, cp);
}

std::string_view JsonCursor::read_string(std::string& scratch) {
    expect('"');
    const std::size_t start = pos_;
    // Fast path: no escapes, the value is a view into the text.
    while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\') ++pos_;
    if (pos_ >= text_.size()) fail("unterminated string");
    if (text_[pos_] == '"') return text_.substr(start, pos_++ - start);
    scratch.assign(text_.substr(start, pos_ - start));
    while (pos_ < text_.size() && text_[pos_] != '"') {
        if (text_[pos_] == '\\') {
            ++pos_;
            read_escape(scratch);
        } else {
            scratch += text_[pos_++];
        }
    }
    if (pos_ >= text_.size()) fail("unterminated string");
    ++pos_;
    return scratch;
}

double JsonCursor::read_number() {
    skip_ws();
    // from_chars reads the JSON number grammar in place (no copy, no locale); what it
    // reads beyond JSON ("inf", "nan") starts with a letter and is rejected below.
    double v = 0;
    const char* begin = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    auto [ptr, ec] = std::from_chars(begin, end, v);
    if (ptr == begin || ec != std::errc() || !std::isfinite(v) ||
        !(std::isdigit(static_cast<unsigned char>(*begin)) || *begin == '-'))
        fail("expected a number");
    pos_ += static_cast<std::size_t>(ptr - begin);
    return v;
}

double JsonCursor::read_sample_value() {
    if (peek() != '"') return read_number();
    std::string scratch;
    const std::size_t start = pos_;
    std::string_view s = read_string(scratch);
    double v = 0;
    if (!parse_float_text(s, v)) {
        pos_ = start;
        fail("sample value '" + std::string(s.substr(0, 40)) + "' is not a number");
    }
    return v;
}

void JsonCursor::skip_value() {
    skip_value_at(0);
}

void JsonCursor::skip_value_at(int depth) {
    if (depth > kMaxDepth) fail("nested deeper than " + std::to_string(kMaxDepth));
    const char c = peek();
    std::string scratch, key;
    if (c == '{') {
        begin_object();
        while (next_key(key)) skip_value_at(depth + 1);
    } else if (c == '[') {
        begin_array();
        while (next_element()) skip_value_at(depth + 1);
    } else if (c == '"') {
        read_string(scratch);
    } else if (c == 't' || c == 'f' || c == 'n') {
        for (std::string_view word : {"true", "false", "null"})
            if (text_.substr(pos_, word.size()) == word) {
                pos_ += word.size();
                return;
            }
        fail("unexpected literal");
    } else {
        read_number();
    }
}

}  // namespace tokenscope::fleet
