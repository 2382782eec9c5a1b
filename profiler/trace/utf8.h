#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tokenscope::trace {

// U+FFFD, what every writer puts in place of a byte that is not valid UTF-8: names
// in traces others send us may hold anything (docs/hostile-input.md).
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// Length (1 to 4) of the valid UTF-8 sequence that starts at text[i], or 0 when
// none does: a stray continuation byte, a truncated sequence, an overlong
// two-byte form, or a lead byte no encoding uses. The one rule the JSON and
// terminal writers share.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// Appends `text` to `out` as valid UTF-8, U+FFFD for each byte that starts no valid
// sequence, every ASCII byte through `ascii(out, c)`: the JSON and terminal writers
// differ only in which ASCII bytes they escape, and how.
template <class Ascii>
void append_valid_utf8(std::string& out, std::string_view text, Ascii&& ascii) {
    for (std::size_t i = 0; i < text.size();) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            ascii(out, text[i]);
            ++i;
            continue;
        }
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) {
            out += kReplacementCharacter;
            ++i;
        } else {
            out.append(text, i, n);
            i += n;
        }
    }
}

}  // namespace tokenscope::trace
