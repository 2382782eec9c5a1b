#include "memory_budget.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <utility>

#include "file_error.h"
#include "run_data.h"

namespace tokenscope::trace {

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
    std::uint64_t value = 0;
    std::size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (value > (std::numeric_limits<std::uint64_t>::max() - 9) / 10) return std::nullopt;
        value = value * 10 + static_cast<std::uint64_t>(text[i] - '0');
    }
    if (i == 0) return std::nullopt;
    std::string_view unit = text.substr(i);
    if (unit.ends_with("iB")) unit.remove_suffix(2);
    if (unit.ends_with("B") && unit.size() == 2) unit.remove_suffix(1);
    int shift = 0;
    if (unit == "K" || unit == "k")
        shift = 10;
    else if (unit == "M" || unit == "m")
        shift = 20;
    else if (unit == "G" || unit == "g")
        shift = 30;
    else if (unit == "T" || unit == "t")
        shift = 40;
    else if (!unit.empty() && unit != "B")
        return std::nullopt;
    if (shift > 0 && value > (std::numeric_limits<std::uint64_t>::max() >> shift))
        return std::nullopt;
    return value << shift;
}

std::uint64_t available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib >> unit)
        if (key == "MemAvailable:") return kib * 1024;
    long pages = ::sysconf(_SC_AVPHYS_PAGES);
    long page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
    return std::uint64_t{4} << 30;  // nothing to go by: a modest machine
}

std::uint64_t run_memory_bytes(const RunData& run) {
    auto held = [](const auto& v) -> std::uint64_t { return v.capacity() * sizeof(v[0]); };
    return held(run.lanes) + held(run.activities) + held(run.steps) + held(run.requests) +
           held(run.counters) + held(run.diagnostics) + run.strings.size() * kBytesPerString;
}

std::string format_bytes(std::uint64_t bytes) {
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    double v = static_cast<double>(bytes) / 1024;
    int u = 0;
    for (; v >= 1024 && u < 3; ++u) v /= 1024;
    char buf[32];
    std::snprintf(buf, sizeof buf, v < 10 ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

MemoryBudget::MemoryBudget(std::string path) : path_(std::move(path)) {
    const char* env = std::getenv(kEnvironment);
    std::optional<std::uint64_t> set = env != nullptr ? parse_byte_size(env) : std::nullopt;
    from_environment_ = set.has_value();
    // The quarter left over is for the views and analysis that follow an import.
    limit_ = set ? *set : available_memory_bytes() / 4 * 3;
}

void MemoryBudget::require(std::uint64_t bytes, std::string_view what) const {
    if (bytes <= limit_) return;
    std::string why = from_environment_ ? std::string("set by ") + kEnvironment
                                        : std::string("3/4 of the memory available; ") +
                                              kEnvironment + " sets another limit";
    throw FileError(path_, std::string(what) + " needs about " + format_bytes(bytes) +
                               " of memory, more than the " + format_bytes(limit_) +
                               " an import may use (" + why + "); refused before memory runs out");
}

}  // namespace tokenscope::trace
