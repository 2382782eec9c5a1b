#pragma once

#include <string_view>
#include <vector>

#include "fleet_spec.h"
#include "query_result.h"

namespace tokenscope::fleet {

// The raw `<metric>_bucket` samples of an OpenMetrics (or Prometheus text format)
// file with timestamps: one series per label set, points by time, values cumulative.
// Timestamps are seconds (OpenMetrics); a value above 1e11 is taken for milliseconds
// (the Prometheus text format). Other metrics, comments and exemplars are skipped.
// Throws std::invalid_argument "line N: problem" for a malformed line or a bucket
// sample without a timestamp.
QueryResult read_openmetrics_buckets(std::string_view text, const std::string& metric);

// What bucket_increase_query(spec) would give at `window_end_s` from raw counters:
// increase() as Prometheus 2.x computes it (samples in [end - W, end], counter
// resets added back, extrapolated towards the window's edges but not below zero,
// nothing from fewer than two samples), then summed by (le, spec.by).
QueryResult bucket_increases(const QueryResult& raw, const FleetSpec& spec,
                             const std::vector<std::int64_t>& window_end_s);

}  // namespace tokenscope::fleet
