#include "prometheus_client.h"

#include <algorithm>

#include "fleet_error.h"
#include "http_client.h"
#include "query_range_parser.h"

namespace tokenscope::fleet {
namespace {

std::string status_problem(long status, const std::string& body) {
    if (status == 401)
        return "HTTP 401 Unauthorized: the server wants credentials (--token-file, or --user "
               "with --password-file)";
    if (status == 403) return "HTTP 403 Forbidden: these credentials may not query this server";
    if (status == 404) return "HTTP 404 Not Found: no Prometheus query API under this URL";
    // Prometheus answers 400 (bad_data) and 422 (execution) with its JSON error.
    try {
        parse_query_range(body);
    } catch (const QueryError& e) {
        return std::string("query rejected (HTTP ") + std::to_string(status) + "): " + e.what();
    } catch (const std::exception&) {
    }
    std::string head = body.substr(0, 120);
    for (char& c : head)
        if (c == '\n' || c == '\r') c = ' ';
    return "HTTP " + std::to_string(status) + (head.empty() ? "" : ": " + head);
}

}  // namespace

PrometheusClient::PrometheusClient(PrometheusConfig config) : config_(std::move(config)) {
    while (!config_.url.empty() && config_.url.back() == '/') config_.url.pop_back();
}

std::string PrometheusClient::endpoint(const std::string& path) const {
    return config_.url + path;
}

QueryResult PrometheusClient::query_range(const std::string& promql, std::int64_t start_s,
                                          std::int64_t end_s, std::int64_t step_s,
                                          const trace::StopToken& stop,
                                          const trace::ProgressFn& progress,
                                          std::string* raw_body) const {
    HttpRequest request;
    request.url = endpoint("/api/v1/query_range");
    request.form_body = "query=" + url_encode(promql) + "&start=" + std::to_string(start_s) +
                        "&end=" + std::to_string(end_s) + "&step=" + std::to_string(step_s);
    request.bearer_token = config_.bearer_token;
    request.user = config_.user;
    request.password = config_.password;
    request.ca_file = config_.ca_file;
    request.timeout_s = config_.timeout_s;
    request.connect_timeout_s = std::min(config_.timeout_s, 10.0);
    HttpResponse response = http_fetch(request, stop, progress);
    if (response.status < 200 || response.status >= 300)
        throw FleetError(request.url, status_problem(response.status, response.body));
    try {
        // Read in place (no copy of a large answer) unless the caller keeps the body,
        // which must stay as the server sent it.
        if (!raw_body) return parse_query_range_in_place(response.body);
        QueryResult result = parse_query_range(response.body);
        *raw_body = std::move(response.body);
        return result;
    } catch (const QueryError& e) {
        throw FleetError(request.url, std::string("query rejected: ") + e.what());
    } catch (const ResponseError& e) {
        throw FleetError(request.url, std::string("not a Prometheus answer: ") + e.what());
    }
}

}  // namespace tokenscope::fleet
