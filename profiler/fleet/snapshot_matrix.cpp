#include "snapshot_matrix.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "fleet_error.h"

namespace tokenscope::fleet {
namespace {

using SeriesMap = std::map<Labels, HistogramSeries>;
// (row value, le) -> the window's summed bucket count.
using RowBucketSums = std::map<std::pair<std::string, std::string>, double>;

const SeriesMap* histogram_of(const Scrape& s, const std::string& metric) {
    auto it = s.histograms.find(metric);
    return it == s.histograms.end() ? nullptr : &it->second;
}

std::optional<double> bucket_count(const HistogramSeries& s, const std::string& le) {
    for (const auto& [b, v] : s.buckets)
        if (b == le) return v;
    return std::nullopt;
}

std::string series_text(const std::string& metric, const Labels& labels) {
    std::string out = metric + "{";
    for (const auto& [k, v] : labels) out += (out.back() == '{' ? "" : ",") + k + "=\"" + v + "\"";
    return out + "}";
}

// Why `now` cannot follow `before` as a counter does; empty when it can.
std::string reset_reason(const HistogramSeries& before, const HistogramSeries& now) {
    if (before.created_s && now.created_s && std::fabs(*before.created_s - *now.created_s) > 1e-3)
        return "its _created changed";
    for (const auto& [le, v] : now.buckets)
        if (auto old = bucket_count(before, le); old && v < *old)
            return "le=\"" + le + "\" went from " + std::to_string(std::llround(*old)) + " to " +
                   std::to_string(std::llround(v));
    if (before.count && now.count && *now.count < *before.count)
        return "_count went from " + std::to_string(std::llround(*before.count)) + " to " +
               std::to_string(std::llround(*now.count));
    return {};
}

// One window's bucket counts, ending at scrape `now` and starting at `before`
// (nullptr: since the start), summed by (spec.by, le).
RowBucketSums window_counts(const Scrape* before, const Scrape& now, const FleetSpec& spec,
                            std::vector<std::string>& diagnostics) {
    RowBucketSums sums;
    const SeriesMap* later = histogram_of(now, spec.metric);
    if (!later) return sums;
    const SeriesMap* earlier = before ? histogram_of(*before, spec.metric) : nullptr;
    for (const auto& [labels, series] : *later) {
        const HistogramSeries* base = nullptr;
        if (earlier)
            if (auto it = earlier->find(labels); it != earlier->end()) base = &it->second;
        if (base) {
            const std::string why = reset_reason(*base, series);
            if (!why.empty()) {
                diagnostics.push_back(now.file + ":" + std::to_string(series.line) +
                                      ": counter reset of " + series_text(spec.metric, labels) +
                                      " between the scrapes at " + format_rfc3339(*before->at_s) +
                                      " and " + format_rfc3339(*now.at_s) + " (" + why +
                                      "): the server restarted; the window counts only what it "
                                      "observed since");
                base = nullptr;
            }
        }
        std::string row;
        for (const auto& [k, v] : labels)
            if (k == spec.by) row = v;
        for (const auto& [le, v] : series.buckets)
            sums[{row, le}] += v - (base ? bucket_count(*base, le).value_or(0) : 0);
    }
    return sums;
}

void add_points(const RowBucketSums& sums, const FleetSpec& spec, std::int64_t end_s,
                std::map<std::pair<std::string, std::string>, Series>& out) {
    for (const auto& [key, v] : sums) {
        Series& s = out[key];
        if (s.labels.empty()) {
            if (!key.first.empty()) s.labels.emplace_back(spec.by, key.first);
            s.labels.emplace_back("le", key.second);
        }
        s.points.push_back({static_cast<double>(end_s), v});
    }
}

// When the one scrape's series began: the earliest _created, else the process' start.
std::optional<std::int64_t> series_start(const Scrape& s, const std::string& metric) {
    std::optional<double> start;
    if (const SeriesMap* h = histogram_of(s, metric))
        for (const auto& [labels, series] : *h)
            if (series.created_s)
                start = std::min(start.value_or(*series.created_s), *series.created_s);
    if (!start) start = s.process_start_s;
    if (!start || !std::isfinite(*start)) return std::nullopt;
    return static_cast<std::int64_t>(std::floor(*start));
}

void sort_scrapes(std::vector<Scrape>& scrapes) {
    std::stable_sort(scrapes.begin(), scrapes.end(),
                     [](const Scrape& a, const Scrape& b) { return *a.at_s < *b.at_s; });
    for (std::size_t i = 1; i < scrapes.size(); ++i)
        if (*scrapes[i].at_s == *scrapes[i - 1].at_s)
            throw FleetError(scrapes[i].where(), "scraped at " + format_rfc3339(*scrapes[i].at_s) +
                                                     ", as " + scrapes[i - 1].where() +
                                                     " is: two scrapes need two times");
}

}  // namespace

FleetMatrix snapshot_matrix(std::vector<Scrape> scrapes, const FleetSpec& spec) {
    sort_scrapes(scrapes);
    SnapshotInfo info;
    for (const auto& s : scrapes) info.scrapes.push_back({*s.at_s, s.where(), s.time_source});
    info.since_start = scrapes.size() == 1;
    std::vector<std::int64_t> ends;
    std::map<std::pair<std::string, std::string>, Series> series;
    for (std::size_t i = info.since_start ? 0 : 1; i < scrapes.size(); ++i) {
        const Scrape* before = i == 0 ? nullptr : &scrapes[i - 1];
        ends.push_back(*scrapes[i].at_s);
        add_points(window_counts(before, scrapes[i], spec, info.diagnostics), spec, ends.back(),
                   series);
    }
    QueryResult counts;
    for (auto& [key, s] : series) counts.series.push_back(std::move(s));
    FleetSpec shown = spec;
    shown.range_s = info.since_start ? spec.window_s : ends.back() - *scrapes.front().at_s;
    FleetMatrix m = build_fleet_matrix(counts, shown, ends);
    if (info.since_start) info.start_s = series_start(scrapes.front(), spec.metric);
    for (std::size_t c = 0; c < ends.size(); ++c) {
        const std::int64_t start =
            info.since_start ? info.start_s.value_or(ends[c]) : *scrapes[c].at_s;
        m.map.columns[c].start_ns = start * static_cast<std::int64_t>(kNsPerSecond);
    }
    m.snapshot = std::move(info);
    return m;
}

}  // namespace tokenscope::fleet
