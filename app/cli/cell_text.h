#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tokenscope::cli {

// Text from a trace (kernel names, diagnostics) made safe for a terminal:
// control characters become "\xNN" (an escape sequence in a kernel name must not
// drive the user's terminal) and bytes that are not UTF-8 become U+FFFD.
std::string terminal_safe(std::string_view text);

// Columns the (terminal-safe, UTF-8) text takes: one per code point.
std::size_t display_width(std::string_view text);

// At most `columns` columns of text: a longer one keeps its head and ends in "...",
// cut between code points (row labels: demangled kernel names run to hundreds).
std::string shorten(std::string_view text, std::size_t columns);

// Splits text into lines of at most `width` columns, at spaces where it can,
// inside a word where a word is longer than a line.
std::vector<std::string> wrap_text(std::string_view text, std::size_t width);

// The width text tables must fit: $COLUMNS, else the terminal's, else 120.
std::size_t terminal_columns();

}  // namespace tokenscope::cli
