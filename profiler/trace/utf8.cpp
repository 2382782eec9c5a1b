#include "utf8.h"

namespace tokenscope::trace {

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    if (i >= text.size()) return 0;
    auto b = static_cast<unsigned char>(text[i]);
    std::size_t n = b < 0x80           ? 1
                    : (b >> 5) == 0x6  ? 2
                    : (b >> 4) == 0xE  ? 3
                    : (b >> 3) == 0x1E ? 4
                                       : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
    if (n == 2 && b < 0xC2) return 0;  // overlong: 0xC0 and 0xC1 encode ASCII
    return n;
}

}  // namespace tokenscope::trace
