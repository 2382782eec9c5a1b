#pragma once

#include <cstdint>
#include <string>

#include "query_result.h"
#include "trace/progress.h"
#include "trace/stop_token.h"

namespace tokenscope::fleet {

struct PrometheusConfig {
    std::string url;  // base: http(s)://host:port[/prefix], as Grafana's data source takes it
    std::string bearer_token;
    std::string user, password;
    std::string ca_file;
    double timeout_s = 30;
};

// The HTTP API of Prometheus and the systems that serve it (Thanos, Mimir, Cortex,
// VictoriaMetrics). Every failure is a FleetError naming the endpoint URL with the
// problem: transport (see http_fetch), HTTP 401/403 (authentication), a rejected
// query (Prometheus' errorType and message), an answer that is not the API's JSON.
class PrometheusClient {
  public:
    explicit PrometheusClient(PrometheusConfig config);

    // /api/v1/query_range at start, start + step, ..., end (Unix seconds). `raw_body`,
    // when given, receives the answer as received (to save for offline use).
    QueryResult query_range(const std::string& promql, std::int64_t start_s, std::int64_t end_s,
                            std::int64_t step_s, const trace::StopToken& stop = {},
                            const trace::ProgressFn& progress = {},
                            std::string* raw_body = nullptr) const;

    std::string endpoint(const std::string& path) const;

  private:
    PrometheusConfig config_;
};

}  // namespace tokenscope::fleet
