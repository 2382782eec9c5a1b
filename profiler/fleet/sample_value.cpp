#include "sample_value.h"

#include <cctype>
#include <charconv>
#include <limits>

namespace tokenscope::fleet {

std::optional<double> parse_sample_value(std::string_view s) {
    double v = 0;
    // The common case first: a plain decimal.
    if (!s.empty() && (std::isdigit(static_cast<unsigned char>(s.front())) || s.front() == '-')) {
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && ptr == s.data() + s.size()) return v;
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "+Inf" || s == "Inf") return kInf;
    if (s == "-Inf") return -kInf;
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ptr != s.data() + s.size()) return std::nullopt;
    if (ec == std::errc::result_out_of_range) return s.front() == '-' ? -kInf : kInf;
    if (ec != std::errc()) return std::nullopt;
    return v;
}

}  // namespace tokenscope::fleet
