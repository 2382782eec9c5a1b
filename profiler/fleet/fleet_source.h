#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fleet_matrix.h"
#include "prometheus_client.h"

namespace tokenscope::fleet {

// The matrix from a live server: one query_range of bucket_increase_query(spec) at
// the window ends. An answer without any series is retried with each of
// spec.metric_alternatives (a preset's SGLang and TGI names) and, if all are empty,
// is a FleetError ("empty result"), naming the query, since it almost always means
// a wrong metric or label.
FleetMatrix query_fleet(const PrometheusClient& client, FleetSpec spec,
                        const trace::StopToken& stop = {}, const trace::ProgressFn& progress = {},
                        std::string* raw_body = nullptr);

// How files are read: the end of the last window of a file with timestamps, the
// times of scrapes that carry none (one per such file, in the order given).
struct FleetFileOptions {
    std::optional<std::int64_t> end_s;
    std::vector<std::int64_t> at_s;
};

// The matrix from files, so it can be reproduced offline. One file: a saved
// query_range answer of bucket_increase_query (what `fleet --save` writes, '{'
// first), an OpenMetrics text file with the raw histogram and timestamps (without
// `end_s` the windows end at its last timestamp), or /metrics scrapes. Several
// files: scrapes of one server (docs/fleet.md, Snapshots; snapshot_matrix). A
// scrape's time is its `# scraped at` line, else the next of `at_s`, else the
// file's modification time. Where spec.metric has no samples, its alternatives are
// tried in turn. Throws FleetError naming the file (and line).
FleetMatrix read_fleet_files(const std::vector<std::string>& paths, FleetSpec spec,
                             const FleetFileOptions& options);
FleetMatrix read_fleet_file(const std::string& path, FleetSpec spec,
                            std::optional<std::int64_t> end_s);

}  // namespace tokenscope::fleet
