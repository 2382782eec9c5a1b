#pragma once

#include <cstdint>
#include <string>

namespace tokenscope::cli {

std::string format_ms(double ns, int decimals = 3);             // "12.345"
std::string format_bytes(double bytes);                         // "1.50 GiB"
std::string format_percent(double fraction, int decimals = 1);  // "12.5%"
std::string format_double(double v, int decimals);

}  // namespace tokenscope::cli
