#pragma once

#include <cstddef>
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

}  // namespace tokenscope::trace
