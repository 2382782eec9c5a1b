#include "json_text.h"

#include "trace/utf8.h"

namespace tokenscope::exporter {

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    trace::append_valid_utf8(out, text, [](std::string& o, char c) {
        static constexpr char kHex[] = "0123456789abcdef";
        auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            o += '\\';
            o += c;
        } else if (u < 0x20) {
            o += "\\u00";
            o += kHex[u >> 4];
            o += kHex[u & 15];
        } else {
            o += c;
        }
    });
    out += '"';
}

void append_microseconds(std::string& out, std::int64_t ns) {
    std::uint64_t mag =
        ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
    if (ns < 0) out += '-';
    out += std::to_string(mag / 1000);
    auto frac = static_cast<unsigned>(mag % 1000);
    out += '.';
    out += static_cast<char>('0' + frac / 100);
    out += static_cast<char>('0' + frac / 10 % 10);
    out += static_cast<char>('0' + frac % 10);
}

}  // namespace tokenscope::exporter
