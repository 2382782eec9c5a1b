#include "fleet_source.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include "fleet_error.h"
#include "openmetrics_reader.h"
#include "query_range_parser.h"

namespace tokenscope::fleet {
namespace {

std::vector<std::int64_t> checked_windows(const FleetSpec& spec, const std::string& where) {
    try {
        return window_ends(spec);
    } catch (const std::invalid_argument& e) {
        throw FleetError(where, e.what());
    }
}

std::optional<std::int64_t> last_time(const QueryResult& r) {
    std::optional<double> last;
    for (const auto& s : r.series)
        if (!s.points.empty()) last = std::max(last.value_or(s.points.back().t), s.points.back().t);
    if (!last) return std::nullopt;
    return static_cast<std::int64_t>(std::floor(*last + 1e-3));
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FleetError(path, "cannot open for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw FleetError(path, "read error");
    return ss.str();
}

QueryResult read_saved_answer(const std::string& path, const std::string& text) {
    try {
        return parse_query_range(text);
    } catch (const QueryError& e) {
        throw FleetError(path, std::string("a saved error answer: ") + e.what());
    } catch (const ResponseError& e) {
        throw FleetError(path, std::string("not a query_range answer: ") + e.what());
    }
}

}  // namespace

FleetMatrix query_fleet(const PrometheusClient& client, const FleetSpec& spec,
                        const trace::StopToken& stop, const trace::ProgressFn& progress,
                        std::string* raw_body) {
    const std::string url = client.endpoint("/api/v1/query_range");
    const auto ends = checked_windows(spec, url);
    const std::string query = bucket_increase_query(spec);
    QueryResult result = client.query_range(query, ends.front(), ends.back(), spec.window_s, stop,
                                            progress, raw_body);
    if (result.series.empty())
        throw FleetError(url, "empty result: no series for " + query + " from " +
                                  format_rfc3339(ends.front() - spec.window_s) + " to " +
                                  format_rfc3339(ends.back()) +
                                  " (check the metric name, the label and the range)");
    return build_fleet_matrix(result, spec, ends);
}

FleetMatrix read_fleet_file(const std::string& path, FleetSpec spec,
                            std::optional<std::int64_t> end_s) {
    const std::string text = read_all(path);
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && text[first] == '{';
    QueryResult raw;
    if (json) {
        raw = read_saved_answer(path, text);
    } else {
        try {
            raw = read_openmetrics_buckets(text, spec.metric);
        } catch (const std::invalid_argument& e) {
            throw FleetError(path, e.what());
        }
    }
    const auto last = last_time(raw);
    if (!last)
        throw FleetError(path, json ? "the saved answer holds no points"
                                    : "no " + spec.metric + "_bucket samples with timestamps");
    spec.end_s = end_s.value_or(*last);
    const auto ends = checked_windows(spec, path);
    return build_fleet_matrix(json ? raw : bucket_increases(raw, spec, ends), spec, ends);
}

}  // namespace tokenscope::fleet
