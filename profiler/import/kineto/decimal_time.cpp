#include "decimal_time.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace tokenscope::import::kineto {

std::optional<std::int64_t> integer_text(std::string_view text) {
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
    return v;
}

namespace {

std::optional<std::int64_t> exponent_form(std::string_view text) {
    std::string copy(text);
    char* end = nullptr;
    long double us = std::strtold(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size()) return std::nullopt;
    long double ns = us * 1000.0L;
    if (!std::isfinite(ns) || std::fabs(ns) > 9.0e18L) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(ns));
}

}  // namespace

std::optional<std::int64_t> micros_text_to_ns(std::string_view text) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && text[i] == '-') {
        negative = true;
        ++i;
    }
    std::int64_t whole = 0;
    std::size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
        if (whole > (kMax / 1000 - 9) / 10) return std::nullopt;
        whole = whole * 10 + (text[i] - '0');
    }
    if (digits == 0) return std::nullopt;
    std::int64_t frac = 0;  // in nanoseconds
    if (i < text.size() && text[i] == '.') {
        ++i;
        std::int64_t scale = 100;
        bool round_up = false;
        std::size_t first = i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            int d = text[i] - '0';
            if (scale > 0) {
                frac += d * scale;
                scale /= 10;
            } else if (i - first == 3) {
                round_up = d >= 5;
            }
        }
        if (i == first) return std::nullopt;
        if (round_up) ++frac;
    }
    if (i < text.size()) {
        if (text[i] == 'e' || text[i] == 'E') return exponent_form(text);
        return std::nullopt;
    }
    std::int64_t ns = whole * 1000 + frac;
    return negative ? -ns : ns;
}

}  // namespace tokenscope::import::kineto
