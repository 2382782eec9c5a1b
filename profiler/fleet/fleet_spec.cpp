#include "fleet_spec.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <stdexcept>
#include <utility>

namespace tokenscope::fleet {
namespace {

// Prometheus allows 11,000 points per series in one range query.
constexpr std::int64_t kMaxWindows = 11000;

bool name_char(char c, bool first, bool colon) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    return alpha || (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

bool valid_name(std::string_view name, bool colon) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i)
        if (!name_char(name[i], i == 0, colon)) return false;
    return true;
}

bool read_int(std::string_view& s, std::size_t digits, int& out) {
    if (s.size() < digits) return false;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + digits, out);
    if (ec != std::errc() || ptr != s.data() + digits) return false;
    s.remove_prefix(digits);
    return true;
}

bool read_char(std::string_view& s, std::string_view accepted) {
    if (s.empty() || accepted.find(s.front()) == std::string_view::npos) return false;
    s.remove_prefix(1);
    return true;
}

std::optional<std::int64_t> parse_rfc3339(std::string_view s) {
    std::tm tm{};
    int offset_h = 0, offset_m = 0;
    if (!read_int(s, 4, tm.tm_year) || !read_char(s, "-") || !read_int(s, 2, tm.tm_mon) ||
        !read_char(s, "-") || !read_int(s, 2, tm.tm_mday) || !read_char(s, "Tt ") ||
        !read_int(s, 2, tm.tm_hour) || !read_char(s, ":") || !read_int(s, 2, tm.tm_min) ||
        !read_char(s, ":") || !read_int(s, 2, tm.tm_sec))
        return std::nullopt;
    if (read_char(s, "."))
        while (!s.empty() && s.front() >= '0' && s.front() <= '9') s.remove_prefix(1);
    int sign = 0;
    if (read_char(s, "Zz")) {
        sign = 0;
    } else if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        sign = s.front() == '+' ? 1 : -1;
        s.remove_prefix(1);
        if (!read_int(s, 2, offset_h) || !read_char(s, ":") || !read_int(s, 2, offset_m))
            return std::nullopt;
    } else {
        return std::nullopt;
    }
    if (!s.empty() || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
        tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
        return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    const std::int64_t utc = timegm(&tm);
    return utc - sign * (offset_h * 3600 + offset_m * 60);
}

}  // namespace

std::string resolve_metric(std::string_view key) {
    if (auto preset = preset_metric(key)) return *preset;
    std::string name(key);
    constexpr std::string_view kSuffix = "_bucket";
    if (name.size() > kSuffix.size() && name.ends_with(kSuffix))
        name.resize(name.size() - kSuffix.size());
    if (!valid_name(name, true))
        throw std::invalid_argument("'" + std::string(key) + "' is neither a preset (" +
                                    preset_names() + ") nor a metric name");
    return name;
}

void set_metric(FleetSpec& spec, std::string_view key, std::optional<Engine> engine) {
    spec.metric_key = std::string(key);
    spec.metric_alternatives.clear();
    if (!is_preset(key)) {
        if (engine)
            throw std::invalid_argument("--engine picks a preset's names (" + preset_names() +
                                        "); '" + std::string(key) + "' is none");
        spec.metric = resolve_metric(key);
        return;
    }
    auto names = preset_metrics(key, engine);
    spec.metric = names.front();
    spec.metric_alternatives.assign(names.begin() + 1, names.end());
}

bool valid_label_name(std::string_view name) {
    return valid_name(name, false);
}

std::vector<std::int64_t> window_ends(const FleetSpec& spec) {
    if (spec.window_s <= 0) throw std::invalid_argument("the window must be positive");
    if (spec.range_s < spec.window_s)
        throw std::invalid_argument("the range " + format_duration(spec.range_s) +
                                    " is shorter than one window " +
                                    format_duration(spec.window_s));
    if (spec.range_s % spec.window_s != 0)
        throw std::invalid_argument("the range " + format_duration(spec.range_s) +
                                    " is not a whole number of " + format_duration(spec.window_s) +
                                    " windows");
    const std::int64_t n = spec.range_s / spec.window_s;
    if (n > kMaxWindows)
        throw std::invalid_argument(std::to_string(n) + " windows; at most " +
                                    std::to_string(kMaxWindows) + " fit one query");
    // Floor division, so a negative end (before 1970) still lands on a multiple.
    std::int64_t last = spec.end_s / spec.window_s * spec.window_s;
    if (last > spec.end_s) last -= spec.window_s;
    std::vector<std::int64_t> ends(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        ends[static_cast<std::size_t>(i)] = last - (n - 1 - i) * spec.window_s;
    return ends;
}

std::string promql_string(std::string_view text) {
    std::string out = "\"";
    for (char c : text) {
        switch (c) {
            case '\\':
                out += "\\\\";
                break;
            case '"':
                out += "\\\"";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + "\"";
}

std::string bucket_increase_query(const FleetSpec& spec) {
    const std::string selector = spec.match.empty() ? "" : "{" + spec.match + "}";
    return "sum by (le, " + spec.by + ") (increase(" + spec.metric + "_bucket" + selector + "[" +
           format_duration(spec.window_s) + "]))";
}

std::string row_quantile_query(const FleetSpec& spec, const std::string& row_value) {
    char q[32];
    std::snprintf(q, sizeof q, "%g", spec.quantile);
    return "histogram_quantile(" + std::string(q) + ", sum by (le, " + spec.by + ") (rate(" +
           spec.metric + "_bucket{" + spec.by + "=" + promql_string(row_value) +
           (spec.match.empty() ? "" : "," + spec.match) + "}[" + format_duration(spec.window_s) +
           "])))";
}

std::int64_t parse_duration(std::string_view text) {
    static constexpr std::array<std::pair<std::string_view, std::int64_t>, 7> kUnits = {{
        {"ms", 0},
        {"s", 1},
        {"m", 60},
        {"h", 3600},
        {"d", 86400},
        {"w", 604800},
        {"y", 31536000},
    }};
    std::string_view s = text;
    std::int64_t total = 0;
    if (s.empty()) throw std::invalid_argument("empty duration");
    while (!s.empty()) {
        std::int64_t value = 0;
        auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        if (ec != std::errc() || value < 0)
            throw std::invalid_argument("'" + std::string(text) + "' is not a duration like 24h");
        s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
        std::int64_t scale = -1;
        for (const auto& [unit, seconds] : kUnits)
            if (s.starts_with(unit) && (unit != "m" || !s.starts_with("ms"))) {
                scale = seconds;
                s.remove_prefix(unit.size());
                break;
            }
        if (scale <= 0)
            throw std::invalid_argument("'" + std::string(text) +
                                        "': units are s, m, h, d, w, y (whole seconds)");
        total += value * scale;
    }
    return total;
}

std::string format_duration(std::int64_t seconds) {
    if (seconds <= 0) return std::to_string(seconds) + "s";
    std::string out;
    for (auto [unit, size] : {std::pair{'d', 86400}, {'h', 3600}, {'m', 60}, {'s', 1}}) {
        if (seconds >= size) {
            out += std::to_string(seconds / size) + unit;
            seconds %= size;
        }
    }
    return out;
}

std::int64_t parse_time(std::string_view text) {
    double unix_s = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), unix_s);
    if (ec == std::errc() && ptr == text.data() + text.size() && !text.empty())
        return static_cast<std::int64_t>(unix_s);
    if (auto t = parse_rfc3339(text)) return *t;
    throw std::invalid_argument("'" + std::string(text) +
                                "' is neither RFC 3339 (2026-12-01T18:00:00Z) nor Unix seconds");
}

std::string format_rfc3339(std::int64_t unix_s) {
    const std::time_t t = static_cast<std::time_t>(unix_s);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace tokenscope::fleet
