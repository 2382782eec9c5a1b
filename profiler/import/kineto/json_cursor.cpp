#include "json_cursor.h"

#include <cstring>

namespace tokenscope::import::kineto {
namespace {

bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

}  // namespace

void JsonCursor::fail(const std::string& what) const {
    throw JsonSyntaxError(offset(), what, false);
}

void JsonCursor::out_of_data() const {
    if (!final_) throw NeedMoreData{};
    throw JsonSyntaxError(offset(), "unexpected end of data", true);
}

void JsonCursor::skip_ws() {
    while (p_ < end_ && is_space(*p_)) ++p_;
    if (p_ == end_) out_of_data();
}

void JsonCursor::expected(char c) const {
    fail(std::string("expected '") + c + "', found '" + *p_ + "'");
}

std::string_view JsonCursor::string() {
    expect('"');
    const char* start = p_;
    while (p_ < end_) {
        char c = *p_;
        if (c == '"') {
            std::string_view s(start, static_cast<std::size_t>(p_ - start));
            ++p_;
            return s;
        }
        if (c == '\\') return unescape(start);
        if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
        ++p_;
    }
    out_of_data();
}

// Slow path, only for strings holding escapes: copies into scratch storage that
// lives until reset_scratch(), so several escaped fields of one event coexist.
std::string_view JsonCursor::unescape(const char* start) {
    if (scratch_used_ == scratch_.size()) scratch_.emplace_back();
    std::string& out = scratch_[scratch_used_++];
    out.assign(start, static_cast<std::size_t>(p_ - start));
    while (true) {
        if (p_ == end_) out_of_data();
        char c = *p_++;
        if (c == '"') return out;
        if (static_cast<unsigned char>(c) < 0x20) fail("control character inside a string");
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        if (p_ == end_) out_of_data();
        char e = *p_++;
        switch (e) {
            case '"':
                out.push_back('"');
                break;
            case '\\':
                out.push_back('\\');
                break;
            case '/':
                out.push_back('/');
                break;
            case 'b':
                out.push_back('\b');
                break;
            case 'f':
                out.push_back('\f');
                break;
            case 'n':
                out.push_back('\n');
                break;
            case 'r':
                out.push_back('\r');
                break;
            case 't':
                out.push_back('\t');
                break;
            case 'u': {
                if (end_ - p_ < 4) out_of_data();
                std::uint32_t cp = 0;
                for (int i = 0; i < 4; ++i) {
                    int h = hex_value(*p_++);
                    if (h < 0) fail("bad \\u escape");
                    cp = cp * 16 + static_cast<std::uint32_t>(h);
                }
                // A lone surrogate is kept as U+FFFD rather than rejected: names are labels.
                if (cp >= 0xD800 && cp <= 0xDBFF && end_ - p_ >= 6 && p_[0] == '\\' &&
                    p_[1] == 'u') {
                    std::uint32_t lo = 0;
                    bool ok = true;
                    for (int i = 2; i < 6; ++i) {
                        int h = hex_value(p_[i]);
                        ok = ok && h >= 0;
                        lo = lo * 16 + static_cast<std::uint32_t>(h < 0 ? 0 : h);
                    }
                    if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
                        p_ += 6;
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                }
                if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
                append_utf8(out, cp);
                break;
            }
            default:
                fail(std::string("bad escape '\\") + e + "'");
        }
    }
}

std::string_view JsonCursor::number() {
    skip_ws();
    const char* start = p_;
    if (*p_ == '-') ++p_;
    auto digits = [&] {
        const char* d = p_;
        while (p_ < end_ && is_digit(*p_)) ++p_;
        if (p_ == end_) out_of_data();
        if (p_ == d) fail("malformed number");
    };
    digits();
    if (*p_ == '.') {
        ++p_;
        digits();
    }
    if (*p_ == 'e' || *p_ == 'E') {
        ++p_;
        if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
        digits();
    }
    return std::string_view(start, static_cast<std::size_t>(p_ - start));
}

bool JsonCursor::literal_null() {
    if (peek() != 'n') return false;
    skip_value();
    return true;
}

std::string_view JsonCursor::skip_value() {
    char c = peek();
    const char* start = p_;
    if (c == '"') {
        string();
    } else if (c == '{' || c == '[') {
        skip_container();
    } else if (c == 't' || c == 'f' || c == 'n') {
        const char* word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        std::size_t n = std::strlen(word);
        if (static_cast<std::size_t>(end_ - p_) < n) {
            if (std::memcmp(p_, word, static_cast<std::size_t>(end_ - p_)) == 0) out_of_data();
            fail("invalid literal");
        }
        if (std::memcmp(p_, word, n) != 0) fail("invalid literal");
        p_ += n;
    } else if (c == '-' || is_digit(c)) {
        number();
    } else {
        fail(std::string("unexpected character '") + c + "'");
    }
    return std::string_view(start, static_cast<std::size_t>(p_ - start));
}

// Validates only nesting and strings: enough to find the value's end quickly.
void JsonCursor::skip_container() {
    std::vector<char> stack;
    while (true) {
        if (p_ == end_) out_of_data();
        char c = *p_;
        if (c == '"') {
            string();
            continue;
        }
        ++p_;
        if (c == '{' || c == '[') {
            stack.push_back(c == '{' ? '}' : ']');
        } else if (c == '}' || c == ']') {
            if (stack.empty() || stack.back() != c) {
                --p_;
                fail(std::string("mismatched '") + c + "'");
            }
            stack.pop_back();
            if (stack.empty()) return;
        }
    }
}

bool JsonCursor::begin_object() {
    expect('{');
    return !consume('}');
}

bool JsonCursor::next_member() {
    char c = peek();
    ++p_;
    if (c == ',') return true;
    if (c == '}') return false;
    --p_;
    fail(std::string("expected ',' or '}', found '") + c + "'");
}

bool JsonCursor::begin_array() {
    expect('[');
    return !consume(']');
}

bool JsonCursor::next_element() {
    char c = peek();
    ++p_;
    if (c == ',') return true;
    if (c == ']') return false;
    --p_;
    fail(std::string("expected ',' or ']', found '") + c + "'");
}

std::string_view JsonCursor::key() {
    if (peek() != '"') fail("expected a member name");
    std::string_view k = string();
    expect(':');
    return k;
}

}  // namespace tokenscope::import::kineto
