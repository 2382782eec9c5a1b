#include "json_text.h"

#include "trace/utf8.h"

namespace tokenscope::exporter {

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (std::size_t i = 0; i < text.size();) {
        char c = text[i];
        auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) {
            std::size_t n = trace::utf8_sequence_length(text, i);
            if (n == 0) {
                out += trace::kReplacementCharacter;
                ++i;
            } else {
                out.append(text, i, n);
                i += n;
            }
            continue;
        }
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += "\\u00";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
        ++i;
    }
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
