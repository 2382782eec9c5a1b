#include "fleet_source.h"

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "fleet_error.h"
#include "metrics_snapshot.h"
#include "openmetrics_reader.h"
#include "query_range_parser.h"
#include "snapshot_matrix.h"

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

std::vector<std::string> metric_candidates(const FleetSpec& spec) {
    std::vector<std::string> names = {spec.metric};
    names.insert(names.end(), spec.metric_alternatives.begin(), spec.metric_alternatives.end());
    return names;
}

std::string joined(const std::vector<std::string>& names, std::size_t at_most = 8) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < at_most; ++i) out += (i ? ", " : "") + names[i];
    if (names.size() > at_most) out += ", ...";
    return out;
}

// An OpenMetrics file with timestamps: the first of the spec's names with samples.
QueryResult read_timestamped(const std::string& path, const std::string& text, FleetSpec& spec) {
    for (const auto& name : metric_candidates(spec)) {
        try {
            QueryResult raw = read_openmetrics_buckets(text, name);
            if (raw.series.empty()) continue;
            spec.metric = name;
            return raw;
        } catch (const std::invalid_argument& e) {
            throw FleetError(path, e.what());
        }
    }
    return {};
}

FleetMatrix read_single_file(const std::string& path, const std::string& text, FleetSpec spec,
                             std::optional<std::int64_t> end_s) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && text[first] == '{';
    const QueryResult raw =
        json ? read_saved_answer(path, text) : read_timestamped(path, text, spec);
    const auto last = last_time(raw);
    if (!last)
        throw FleetError(path, json ? "the saved answer holds no points"
                                    : "no " + joined(metric_candidates(spec)) +
                                          " _bucket samples with timestamps");
    spec.end_s = end_s.value_or(*last);
    const auto ends = checked_windows(spec, path);
    return build_fleet_matrix(json ? raw : bucket_increases(raw, spec, ends), spec, ends);
}

std::int64_t file_time(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw FleetError(path, "cannot read its modification time");
    return static_cast<std::int64_t>(st.st_mtime);
}

// The scrapes of every file, each with its time.
std::vector<Scrape> read_all_scrapes(const std::vector<std::string>& paths,
                                     const std::vector<std::pair<std::string, std::string>>& texts,
                                     const std::vector<std::int64_t>& at_s) {
    std::vector<Scrape> all;
    std::size_t untimed = 0;
    for (const auto& [path, text] : texts) {
        std::vector<Scrape> scrapes;
        try {
            scrapes = read_scrapes(text, path);
        } catch (const std::invalid_argument& e) {
            throw FleetError(path, e.what());
        }
        if (scrapes.empty()) throw FleetError(path, "no samples: an empty /metrics scrape");
        if (!scrapes.front().at_s) {
            scrapes.front().at_s = untimed < at_s.size() ? at_s[untimed] : file_time(path);
            scrapes.front().time_source = untimed < at_s.size() ? "--at" : "file time";
            ++untimed;
        }
        for (auto& s : scrapes) all.push_back(std::move(s));
    }
    if (!at_s.empty() && at_s.size() != untimed)
        throw FleetError(paths.front(), std::to_string(at_s.size()) + " --at times for " +
                                            std::to_string(untimed) +
                                            " scrapes without a '# scraped at' line");
    return all;
}

// The first of the spec's names that some scrape holds.
void choose_scraped_metric(const std::vector<Scrape>& scrapes, FleetSpec& spec,
                           const std::string& where) {
    for (const auto& name : metric_candidates(spec))
        for (const auto& s : scrapes)
            if (s.histograms.count(name)) {
                spec.metric = name;
                return;
            }
    std::set<std::string> held;
    for (const auto& s : scrapes)
        for (const auto& [name, series] : s.histograms) held.insert(name);
    throw FleetError(where,
                     "no " + joined(metric_candidates(spec)) + " histogram in the scrape" +
                         (held.empty() ? std::string(" (it holds no histogram at all)")
                                       : "; it holds " + joined({held.begin(), held.end()}, 12)));
}

FleetMatrix read_scrape_files(const std::vector<std::string>& paths,
                              const std::vector<std::pair<std::string, std::string>>& texts,
                              FleetSpec spec, const FleetFileOptions& options) {
    std::vector<Scrape> scrapes = read_all_scrapes(paths, texts, options.at_s);
    choose_scraped_metric(scrapes, spec, paths.front());
    return snapshot_matrix(std::move(scrapes), spec);
}

}  // namespace

FleetMatrix query_fleet(const PrometheusClient& client, FleetSpec spec,
                        const trace::StopToken& stop, const trace::ProgressFn& progress,
                        std::string* raw_body) {
    const std::string url = client.endpoint("/api/v1/query_range");
    const auto ends = checked_windows(spec, url);
    const std::string first_query = bucket_increase_query(spec);
    for (const auto& name : metric_candidates(spec)) {
        spec.metric = name;
        QueryResult result =
            client.query_range(bucket_increase_query(spec), ends.front(), ends.back(),
                               spec.window_s, stop, progress, raw_body);
        if (!result.series.empty()) return build_fleet_matrix(result, spec, ends);
    }
    const std::string also = spec.metric_alternatives.empty()
                                 ? std::string()
                                 : " (nor for " + joined(spec.metric_alternatives) + ")";
    throw FleetError(url, "empty result: no series for " + first_query + also + " from " +
                              format_rfc3339(ends.front() - spec.window_s) + " to " +
                              format_rfc3339(ends.back()) +
                              " (check the metric name, the label and the range)");
}

FleetMatrix read_fleet_files(const std::vector<std::string>& paths, FleetSpec spec,
                             const FleetFileOptions& options) {
    if (paths.empty()) throw std::invalid_argument("read_fleet_files: no file");
    std::vector<std::pair<std::string, std::string>> texts;
    const std::string* not_scrape = nullptr;  // the first file with timestamps, if any
    for (const auto& path : paths) {
        texts.emplace_back(path, read_all(path));
        if (!not_scrape && !looks_like_scrape(texts.back().second)) not_scrape = &path;
    }
    if (!not_scrape) return read_scrape_files(paths, texts, spec, options);
    if (paths.size() > 1)
        throw FleetError(*not_scrape,
                         "not a /metrics scrape: several files must all be scrapes "
                         "(a saved answer or an OpenMetrics file is read alone)");
    if (!options.at_s.empty())
        throw FleetError(paths.front(),
                         "--at gives the times of /metrics scrapes; this file "
                         "has its own timestamps");
    return read_single_file(paths.front(), texts.front().second, spec, options.end_s);
}

FleetMatrix read_fleet_file(const std::string& path, FleetSpec spec,
                            std::optional<std::int64_t> end_s) {
    return read_fleet_files({path}, std::move(spec), {end_s, {}});
}

}  // namespace tokenscope::fleet
