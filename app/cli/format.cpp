#include "format.h"

#include <cmath>
#include <cstdio>

namespace tokenscope::cli {

std::string format_double(double v, int decimals) {
    if (std::isnan(v)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string format_ms(double ns, int decimals) {
    return format_double(ns / 1e6, decimals);
}

std::string format_percent(double fraction, int decimals) {
    if (std::isnan(fraction)) return "";
    return format_double(fraction * 100.0, decimals) + "%";
}

std::string format_bytes(double bytes) {
    static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (std::fabs(bytes) >= 1024.0 && unit < 4) {
        bytes /= 1024.0;
        ++unit;
    }
    return format_double(bytes, unit == 0 ? 0 : 2) + " " + kUnits[unit];
}

}  // namespace tokenscope::cli
