#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "exposition_line.h"

namespace tokenscope::fleet {

// One series of a histogram (its labels without le) in one scrape of /metrics:
// cumulative counts since the series was created, as the server exposes them.
struct HistogramSeries {
    std::vector<std::pair<std::string, double>> buckets;  // le as written -> count
    std::optional<double> count;                          // <name>_count
    std::optional<double> created_s;                      // <name>_created (prometheus_client)
    std::size_t line = 0;                                 // its first sample's line
};

// One scrape of a server's /metrics (docs/fleet.md, Snapshots): the Prometheus text
// exposition format (or OpenMetrics) without sample timestamps.
struct Scrape {
    std::string file;
    std::size_t line = 0;                   // its `# scraped at` line; 0 without one
    std::optional<std::int64_t> at_s;       // from `# scraped at`, else set by the reader
    std::string time_source;                // "# scraped at", "--at" or "file time"
    std::optional<double> process_start_s;  // process_start_time_seconds
    // Every histogram with _bucket samples, by base name; its series by sorted labels.
    std::map<std::string, std::map<Labels, HistogramSeries>> histograms;

    std::string where() const { return line ? file + ":" + std::to_string(line) : file; }
};

// The line that starts a scrape in a file holding several: `# scraped at TIME`, the
// time in RFC 3339 or Unix seconds.
inline constexpr std::string_view kScrapedAt = "# scraped at ";

// Whether `text` is a /metrics scrape rather than a file with timestamps: it has a
// `# scraped at` line, or its first sample has no timestamp.
bool looks_like_scrape(std::string_view text);

// The scrapes of one file: one per `# scraped at` line, or the whole text as one
// scrape without a time. Throws std::invalid_argument "line N: problem" for a
// malformed line, a bad time, samples before the first `# scraped at` of a file
// that has one, a histogram sample with a timestamp, or a bucket given twice in one
// scrape (two scrapes concatenated without `# scraped at` between them).
std::vector<Scrape> read_scrapes(std::string_view text, const std::string& file);

}  // namespace tokenscope::fleet
