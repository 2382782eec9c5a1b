#include "metrics_snapshot.h"

#include <algorithm>
#include <stdexcept>

#include "fleet_spec.h"

namespace tokenscope::fleet {
namespace {

constexpr std::string_view kBucketSuffix = "_bucket";
constexpr std::string_view kCountSuffix = "_count";
constexpr std::string_view kCreatedSuffix = "_created";

bool strip_suffix(std::string_view& name, std::string_view suffix) {
    if (name.size() <= suffix.size() || !name.ends_with(suffix)) return false;
    name.remove_suffix(suffix.size());
    return true;
}

std::string labels_text(const Labels& labels) {
    std::string out = "{";
    for (const auto& [k, v] : labels) out += (out.size() > 1 ? "," : "") + k + "=\"" + v + "\"";
    return out + "}";
}

std::int64_t scraped_at_time(std::string_view line, std::size_t line_no) {
    std::string_view text = line.substr(kScrapedAt.size());
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    try {
        return parse_time(text);
    } catch (const std::invalid_argument& e) {
        throw_line_error(line_no, std::string(kScrapedAt) + "…: " + e.what());
    }
}

// Files the sample into the scrape: a histogram's bucket, count or creation time,
// or the process' start; every other sample is skipped.
void add_scrape_sample(Scrape& scrape, SampleLine& s, std::size_t line_no) {
    if (s.name == "process_start_time_seconds") {
        scrape.process_start_s = s.value;
        return;
    }
    std::string_view base = s.name;
    const bool bucket = strip_suffix(base, kBucketSuffix);
    const bool count = !bucket && strip_suffix(base, kCountSuffix);
    const bool created = !bucket && !count && strip_suffix(base, kCreatedSuffix);
    if (!bucket && !count && !created) return;
    if (s.timestamp)
        throw_line_error(line_no, std::string(s.name) +
                                      " sample with a timestamp in a /metrics scrape (a file "
                                      "with timestamps is read as OpenMetrics: give them all one)");
    std::string le;
    std::erase_if(s.labels, [&](const auto& kv) {
        if (!bucket || kv.first != "le") return false;
        le = kv.second;
        return true;
    });
    std::sort(s.labels.begin(), s.labels.end());
    HistogramSeries& series = scrape.histograms[std::string(base)][s.labels];
    if (series.line == 0) series.line = line_no;
    if (created) {
        series.created_s = s.value;
    } else if (count) {
        series.count = s.value;
    } else {
        if (le.empty()) throw_line_error(line_no, std::string(s.name) + " without an le label");
        for (const auto& [b, v] : series.buckets)
            if (b == le)
                throw_line_error(line_no, std::string(s.name) + labels_text(s.labels) + " le=\"" +
                                              le +
                                              "\" twice in one scrape (several scrapes in "
                                              "one file need a '# scraped at TIME' line each)");
        series.buckets.emplace_back(le, s.value);
    }
}

}  // namespace

bool looks_like_scrape(std::string_view text) {
    bool scrape = false, decided = false;
    for_each_line(text, [&](std::string_view line, std::size_t line_no) {
        if (decided) return;
        if (line.starts_with(kScrapedAt)) {
            scrape = decided = true;
            return;
        }
        try {
            if (auto s = parse_sample_line(line, line_no)) {
                scrape = !s->timestamp;
                decided = true;
            }
        } catch (const std::invalid_argument&) {
            decided = true;  // the OpenMetrics reader names the line
        }
    });
    return scrape;
}

std::vector<Scrape> read_scrapes(std::string_view text, const std::string& file) {
    std::vector<Scrape> out;
    bool timed = false;  // the file has `# scraped at` lines
    for_each_line(text, [&](std::string_view line, std::size_t line_no) {
        if (line.starts_with(kScrapedAt)) {
            if (!timed && !out.empty())
                throw_line_error(line_no,
                                 "samples before the first '# scraped at' line (a file "
                                 "of several scrapes starts each with one)");
            timed = true;
            Scrape& s = out.emplace_back();
            s.file = file;
            s.line = line_no;
            s.at_s = scraped_at_time(line, line_no);
            s.time_source = "# scraped at";
            return;
        }
        auto sample = parse_sample_line(line, line_no);
        if (!sample) return;
        if (out.empty()) out.emplace_back().file = file;
        add_scrape_sample(out.back(), *sample, line_no);
    });
    for (auto& s : out)
        std::erase_if(s.histograms, [](const auto& h) {
            for (const auto& [labels, series] : h.second)
                if (!series.buckets.empty()) return false;
            return true;
        });
    return out;
}

}  // namespace tokenscope::fleet
