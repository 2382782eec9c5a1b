#include "openmetrics_reader.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

#include "exposition_line.h"

namespace tokenscope::fleet {
namespace {

void read_sample(std::string_view s, std::size_t line, const std::string& bucket_name,
                 std::map<Labels, Series>& series) {
    const std::size_t name_end = std::min(s.find_first_of("{ \t"), s.size());
    if (s.substr(0, name_end) != bucket_name) return;  // other lines are not even parsed
    auto sample = parse_sample_line(s, line);
    if (!sample) return;
    Labels labels = std::move(sample->labels);
    std::sort(labels.begin(), labels.end());
    if (!sample->timestamp) throw_line_error(line, bucket_name + " sample without a timestamp");
    double t = *sample->timestamp;
    if (!std::isfinite(t)) throw_line_error(line, "timestamp is not finite");
    if (std::fabs(t) > 1e11) t /= 1000;  // Prometheus text format: milliseconds
    Series& out = series[labels];
    if (out.labels.empty()) out.labels = labels;
    out.points.push_back({t, sample->value});
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
    for_each_line(text, [&](std::string_view line, std::size_t line_no) {
        if (!line.empty() && line.front() != '#') read_sample(line, line_no, bucket_name, series);
    });
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
