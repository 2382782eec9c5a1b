#pragma once

#include <optional>
#include <string>

#include "fleet_matrix.h"
#include "prometheus_client.h"

namespace tokenscope::fleet {

// The matrix from a live server: one query_range of bucket_increase_query(spec) at
// the window ends. An answer without any series is a FleetError ("empty result"),
// naming the query, since it almost always means a wrong metric or label.
FleetMatrix query_fleet(const PrometheusClient& client, const FleetSpec& spec,
                        const trace::StopToken& stop = {}, const trace::ProgressFn& progress = {},
                        std::string* raw_body = nullptr);

// The matrix from a file, so it can be reproduced offline: a saved query_range
// answer of bucket_increase_query (what `fleet --save` writes) or an OpenMetrics
// text file with the raw histogram (told apart by the first character, '{' for
// JSON). Without `end_s` the windows end at the file's last timestamp. Throws
// FleetError naming the file.
FleetMatrix read_fleet_file(const std::string& path, FleetSpec spec,
                            std::optional<std::int64_t> end_s);

}  // namespace tokenscope::fleet
