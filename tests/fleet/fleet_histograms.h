#pragma once
// Histograms with known latency distributions per label and hour, written as an
// OpenMetrics file for `promtool tsdb create-blocks-from openmetrics`, and their
// expected quantiles computed here, independently of profiler/fleet, from the same
// bucket counts. Shared by the fleet tests and bench/fleet_bench.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace tokenscope::fleet_test {

// vLLM's TTFT buckets (vllm/v1/metrics/loggers.py), seconds; +Inf implied.
inline const std::vector<double> kBounds = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,
                                            0.25,  0.5,   0.75, 1.0,  2.5,  5.0,  7.5,  10.0};
inline constexpr std::int64_t kHour = 3600;
inline constexpr int kSamplesPerHour = 12;  // a scrape every 5 minutes

struct HourSpec {
    double median_s = 0;  // lognormal median
    double sigma = 0.5;
    double observations = 0;  // 0 = no data at all in this hour
};

struct Fleet {
    std::string metric = "vllm:time_to_first_token_seconds";
    std::string label = "model_name";
    std::int64_t start_s = 0;  // first window starts here
    std::vector<std::string> rows;
    std::vector<std::vector<HourSpec>> hours;  // [row][hour]

    std::size_t hour_count() const { return hours.empty() ? 0 : hours.front().size(); }
    std::int64_t end_s() const { return start_s + static_cast<std::int64_t>(hour_count()) * kHour; }

    // Cumulative bucket increments of one hour, one per bound then +Inf (integers).
    std::vector<double> buckets(std::size_t row, std::size_t hour) const {
        const HourSpec& h = hours[row][hour];
        std::vector<double> out;
        for (double le : kBounds) {
            const double z = (std::log(le) - std::log(h.median_s)) / h.sigma;
            out.push_back(std::floor(h.observations * 0.5 * std::erfc(-z / std::sqrt(2.0))));
        }
        out.push_back(h.observations);
        return out;
    }
    bool has_data(std::size_t row, std::size_t hour) const {
        return hours[row][hour].observations > 0;
    }
};

// PromQL's histogram_quantile for cumulative counts by bound, written from its
// documentation: rank q x total, the first bucket reaching it, linear inside it
// from the previous bound (0 below the first), the highest finite bound when the
// rank is in +Inf; nullopt without observations.
inline std::optional<double> expected_quantile(double q, const std::vector<double>& cum) {
    const double total = cum.back();
    if (total <= 0) return std::nullopt;
    const double rank = q * total;
    for (std::size_t i = 0; i < kBounds.size(); ++i) {
        if (cum[i] < rank) continue;
        const double lo = i == 0 ? 0.0 : kBounds[i - 1];
        const double below = i == 0 ? 0.0 : cum[i - 1];
        return lo + (kBounds[i] - lo) * (rank - below) / (cum[i] - below);
    }
    return kBounds.back();
}

inline std::string le_text(std::size_t b) {
    if (b == kBounds.size()) return "+Inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", kBounds[b]);
    return buf;
}

// The counter of bucket b (kBounds.size() = +Inf) of `row` at every 5-minute slot
// from start_s: nullopt where nothing is written. The hour's observations arrive
// evenly, so the samples on the hour boundaries hold exactly the counts before and
// after it and increase() over the hour is exact. An hour without data has no sample
// inside it (only on a boundary shared with a neighbour that has data), so its window
// is blank.
inline std::vector<std::optional<double>> series_values(const Fleet& f, std::size_t row,
                                                        std::size_t b) {
    std::vector<std::optional<double>> out(f.hour_count() * kSamplesPerHour + 1);
    double running = 0;
    for (std::size_t h = 0; h < f.hour_count(); ++h) {
        if (!f.has_data(row, h)) continue;
        const double inc = f.buckets(row, h)[b];
        for (int j = 0; j <= kSamplesPerHour; ++j)
            out[h * kSamplesPerHour + static_cast<std::size_t>(j)] =
                running + std::floor(inc * j / kSamplesPerHour);
        running += inc;
    }
    return out;
}

inline void write_openmetrics(const Fleet& f, const std::string& path) {
    std::ofstream out(path);
    out << "# HELP " << f.metric << " Time to first token (test data).\n"
        << "# TYPE " << f.metric << " histogram\n";
    char line[512];
    for (std::size_t r = 0; r < f.rows.size(); ++r) {
        for (std::size_t b = 0; b <= kBounds.size(); ++b) {
            const auto values = series_values(f, r, b);
            for (std::size_t i = 0; i < values.size(); ++i) {
                if (!values[i]) continue;
                const std::int64_t t =
                    f.start_s + static_cast<std::int64_t>(i) * (kHour / kSamplesPerHour);
                std::snprintf(line, sizeof line, "%s_bucket{%s=\"%s\",le=\"%s\"} %.17g %lld\n",
                              f.metric.c_str(), f.label.c_str(), f.rows[r].c_str(),
                              le_text(b).c_str(), *values[i], static_cast<long long>(t));
                out << line;
            }
        }
    }
    out << "# EOF\n";
}

}  // namespace tokenscope::fleet_test
