#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tokenscope::import::kineto {

// Converts a JSON number holding microseconds ("1234.567") to integer
// nanoseconds from its decimal text, so no binary floating point touches the
// digits: 1712195495505582.988 us is exactly 1712195495505582988 ns. More than
// three decimals round half away from zero; exponents fall back to long double.
std::optional<std::int64_t> micros_text_to_ns(std::string_view text);

// Integer value of a JSON number's text; nullopt for fractions or overflow.
std::optional<std::int64_t> integer_text(std::string_view text);

}  // namespace tokenscope::import::kineto
