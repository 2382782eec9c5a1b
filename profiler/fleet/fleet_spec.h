#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metric_presets.h"

namespace tokenscope::fleet {

// What a fleet matrix shows (docs/fleet.md): the q-quantile of a histogram
// metric per value of one label, in windows of `window_s` ending on multiples of the
// window, the last one at or before `end_s`, covering `range_s`.
struct FleetSpec {
    std::string metric;      // histogram base name, without _bucket
    std::string metric_key;  // what the user asked for: "ttft" or the name itself
    // A preset's other engines' names, tried in turn where `metric` has no data (a
    // file without its samples, a server answering an empty result).
    std::vector<std::string> metric_alternatives;
    std::string by;     // row label
    std::string match;  // extra PromQL label matchers, e.g. job="vllm" (no braces)
    std::int64_t range_s = 24 * 3600;
    std::int64_t window_s = 3600;
    std::int64_t end_s = 0;
    double quantile = 0.95;
    // Baseline of the per-row SLA: the first N windows; 0 = the first half (at least one).
    std::size_t sla_windows = 0;
};

// A preset key (vLLM's name, see metric_presets.h) or a metric given by name: with
// or without the _bucket suffix; throws std::invalid_argument for a name that is not
// a Prometheus metric name.
std::string resolve_metric(std::string_view key);
// Sets spec.metric_key, spec.metric and spec.metric_alternatives: a preset's names
// for `engine` (without one, vLLM's first, then SGLang's and TGI's as alternatives),
// or the metric named. Throws std::invalid_argument as resolve_metric and
// preset_metrics do.
void set_metric(FleetSpec& spec, std::string_view key, std::optional<Engine> engine);
bool valid_label_name(std::string_view name);

// Window ends, oldest first: the last is the largest multiple of window_s <= end_s,
// and there are range_s / window_s of them (at least one). Throws
// std::invalid_argument for a window <= 0, a range shorter than a window, a range
// that is not a whole number of windows, or more than 11000 windows (Prometheus'
// limit of points per series).
std::vector<std::int64_t> window_ends(const FleetSpec& spec);

// sum by (le, LABEL) (increase(METRIC_bucket[W])): evaluated at each window end it
// gives each row's bucket counts of that window.
std::string bucket_increase_query(const FleetSpec& spec);
// The alert expression for one row: histogram_quantile(q, sum by (le, LABEL)
// (rate(METRIC_bucket{LABEL="value"}[W]))).
std::string row_quantile_query(const FleetSpec& spec, const std::string& row_value);
// A PromQL (and Go) string literal: "..." with \\, \" and control characters escaped.
std::string promql_string(std::string_view text);

// "24h", "1h30m", "90s", "2d", "1w" -> seconds; Prometheus' duration syntax. Throws
// std::invalid_argument.
std::int64_t parse_duration(std::string_view text);
// The shortest Prometheus duration for seconds: 10800 -> "3h", 5400 -> "1h30m".
std::string format_duration(std::int64_t seconds);
// RFC 3339 ("2026-12-01T18:00:00Z", "...+02:00", fractions ignored) or Unix seconds
// ("1764612000", "1764612000.5" truncated). Throws std::invalid_argument.
std::int64_t parse_time(std::string_view text);
std::string format_rfc3339(std::int64_t unix_s);

}  // namespace tokenscope::fleet
