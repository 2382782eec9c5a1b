#include "openmetrics_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "json_cursor.h"

namespace tokenscope::fleet {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

[[noreturn]] void bad_line(std::size_t line, const std::string& problem) {
    throw std::invalid_argument("line " + std::to_string(line) + ": " + problem);
}

double parse_value(std::string_view s, std::size_t line) {
    std::string quoted = "\"" + std::string(s) + "\"";
    try {
        JsonCursor in(quoted);
        return in.read_sample_value();
    } catch (const JsonSyntaxError&) {
        bad_line(line, "'" + std::string(s.substr(0, 40)) + "' is not a number");
    }
}

// {a="x",b="y\"z"}: the label set, with the text after the closing brace left in `s`.
Labels parse_labels(std::string_view& s, std::size_t line) {
    Labels labels;
    s.remove_prefix(1);
    while (true) {
        while (!s.empty() && (s.front() == ' ' || s.front() == ',')) s.remove_prefix(1);
        if (s.empty()) bad_line(line, "unterminated label set");
        if (s.front() == '}') {
            s.remove_prefix(1);
            return labels;
        }
        const std::size_t eq = s.find('=');
        if (eq == std::string_view::npos || eq + 1 >= s.size() || s[eq + 1] != '"')
            bad_line(line, "expected name=\"value\" in the label set");
        std::string name(s.substr(0, eq));
        while (!name.empty() && name.back() == ' ') name.pop_back();
        s.remove_prefix(eq + 2);
        std::string value;
        while (!s.empty() && s.front() != '"') {
            if (s.front() == '\\' && s.size() > 1) {
                s.remove_prefix(1);
                value += s.front() == 'n' ? '\n' : s.front();
            } else {
                value += s.front();
            }
            s.remove_prefix(1);
        }
        if (s.empty()) bad_line(line, "unterminated label value");
        s.remove_prefix(1);
        labels.emplace_back(std::move(name), std::move(value));
    }
}

std::string_view next_field(std::string_view& s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    const std::size_t end = std::min(s.find(' '), s.size());
    std::string_view field = s.substr(0, end);
    s.remove_prefix(end);
    return field;
}

void read_sample(std::string_view s, std::size_t line, const std::string& bucket_name,
                 std::map<Labels, Series>& series) {
    const std::size_t name_end = std::min(s.find_first_of("{ "), s.size());
    if (s.substr(0, name_end) != bucket_name) return;
    s.remove_prefix(name_end);
    Labels labels;
    if (!s.empty() && s.front() == '{') labels = parse_labels(s, line);
    std::sort(labels.begin(), labels.end());
    const double v = parse_value(next_field(s), line);
    const std::string_view ts = next_field(s);
    if (ts.empty() || ts == "#") bad_line(line, bucket_name + " sample without a timestamp");
    double t = parse_value(ts, line);
    if (!std::isfinite(t)) bad_line(line, "timestamp is not finite");
    if (std::fabs(t) > 1e11) t /= 1000;  // Prometheus text format: milliseconds
    Series& out = series[labels];
    if (out.labels.empty()) out.labels = labels;
    out.points.push_back({t, v});
}

// Prometheus 2.x extrapolatedRate(isCounter, !isRate) over the points in [start, end].
std::optional<double> increase(const std::vector<Point>& pts, double start, double end) {
    auto first = std::lower_bound(pts.begin(), pts.end(), start,
                                  [](const Point& p, double t) { return p.t < t; });
    auto last =
        std::upper_bound(first, pts.end(), end, [](double t, const Point& p) { return t < p.t; });
    if (last - first < 2) return std::nullopt;
    double result = (last - 1)->v - first->v;
    double previous = first->v;
    for (auto it = first; it != last; ++it) {
        if (it->v < previous) result += previous;  // a counter reset
        previous = it->v;
    }
    const double sampled = (last - 1)->t - first->t;
    const double average = sampled / static_cast<double>(last - first - 1);
    double to_start = first->t - start;
    const double to_end = end - (last - 1)->t;
    if (result > 0 && first->v >= 0) to_start = std::min(to_start, sampled * (first->v / result));
    const double threshold = average * 1.1;
    double interval = sampled;
    interval += to_start < threshold ? to_start : average / 2;
    interval += to_end < threshold ? to_end : average / 2;
    return result * (interval / sampled);
}

}  // namespace

QueryResult read_openmetrics_buckets(std::string_view text, const std::string& metric) {
    const std::string bucket_name = metric + "_bucket";
    std::map<Labels, Series> series;
    std::size_t line_no = 0;
    while (!text.empty()) {
        const std::size_t nl = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, nl);
        text.remove_prefix(std::min(nl + 1, text.size()));
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        read_sample(line, line_no, bucket_name, series);
    }
    QueryResult out;
    for (auto& [labels, s] : series) {
        std::stable_sort(s.points.begin(), s.points.end(),
                         [](const Point& a, const Point& b) { return a.t < b.t; });
        std::erase_if(s.points, [](const Point& p) { return std::isnan(p.v); });
        out.series.push_back(std::move(s));
    }
    return out;
}

QueryResult bucket_increases(const QueryResult& raw, const FleetSpec& spec,
                             const std::vector<std::int64_t>& window_end_s) {
    // (row value, le) -> summed increase per window; absent where no series had one.
    std::map<std::pair<std::string, std::string>, std::vector<std::optional<double>>> sums;
    for (const auto& s : raw.series) {
        const std::string* le = s.label("le");
        if (!le) continue;
        const std::string* row = s.label(spec.by);
        auto& sum = sums[{row ? *row : std::string(), *le}];
        sum.resize(window_end_s.size());
        for (std::size_t c = 0; c < window_end_s.size(); ++c) {
            const double end = static_cast<double>(window_end_s[c]);
            if (auto inc = increase(s.points, end - static_cast<double>(spec.window_s), end))
                sum[c] = sum[c].value_or(0) + *inc;
        }
    }
    QueryResult out;
    for (const auto& [key, values] : sums) {
        Series s;
        if (!key.first.empty()) s.labels.emplace_back(spec.by, key.first);
        s.labels.emplace_back("le", key.second);
        for (std::size_t c = 0; c < values.size(); ++c)
            if (values[c]) s.points.push_back({static_cast<double>(window_end_s[c]), *values[c]});
        if (!s.points.empty()) out.series.push_back(std::move(s));
    }
    return out;
}

}  // namespace tokenscope::fleet
