#include "cell_text.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "trace/utf8.h"

namespace tokenscope::cli {
namespace {

constexpr std::size_t kDefaultColumns = 120;
bool is_continuation(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Byte offset of the first code point past `columns` columns (never inside a code point).
std::size_t byte_offset_of_column(std::string_view text, std::size_t columns) {
    std::size_t cut = 0, cols = 0;
    while (cut < text.size() && cols < columns) {
        ++cut;
        while (cut < text.size() && is_continuation(text[cut])) ++cut;
        ++cols;
    }
    return cut;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    trace::append_valid_utf8(out, text, [](std::string& o, char c) {
        auto b = static_cast<unsigned char>(c);
        if (b < 0x20 || b == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", b);
            o += buf;
        } else {
            o += c;
        }
    });
    return out;
}

std::size_t display_width(std::string_view text) {
    std::size_t w = 0;
    for (char c : text) w += is_continuation(c) ? 0 : 1;
    return w;
}

std::vector<std::string> wrap_text(std::string_view text, std::size_t width) {
    std::vector<std::string> lines;
    if (width == 0) width = 1;
    while (display_width(text) > width) {
        std::size_t cut = byte_offset_of_column(text, width);
        std::size_t space = text.rfind(' ', cut);
        bool at_space = space != std::string_view::npos && space > 0 && space >= cut / 2;
        std::size_t end = at_space ? space : cut;
        lines.emplace_back(text.substr(0, end));
        text.remove_prefix(at_space ? end + 1 : end);
    }
    lines.emplace_back(text);
    return lines;
}

std::size_t terminal_columns() {
    if (const char* env = std::getenv("COLUMNS")) {
        long v = std::strtol(env, nullptr, 10);
        if (v >= 20 && v <= 10000) return static_cast<std::size_t>(v);
    }
    winsize ws{};
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return kDefaultColumns;
}

std::string shorten(std::string_view text, std::size_t columns) {
    if (display_width(text) <= columns) return std::string(text);
    std::size_t keep = columns > 3 ? columns - 3 : 0;
    return std::string(text.substr(0, byte_offset_of_column(text, keep))) + "...";
}

}  // namespace tokenscope::cli
