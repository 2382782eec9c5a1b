#pragma once

#include <string>

#include "trace/progress.h"
#include "trace/stop_token.h"

namespace tokenscope::fleet {

struct HttpRequest {
    std::string url;        // shown in every error
    std::string form_body;  // POSTed as application/x-www-form-urlencoded; empty = GET
    std::string bearer_token;
    std::string user, password;  // basic auth when user is not empty
    std::string ca_file;         // PEM bundle to trust instead of the system's
    double timeout_s = 30;       // the whole exchange
    double connect_timeout_s = 10;
};

struct HttpResponse {
    long status = 0;
    std::string body;
    std::string content_type;
};

// One HTTP(S) exchange with libcurl (redirects followed, gzip accepted). Any HTTP
// status is returned; transport failures throw FleetError naming the URL with the
// problem in words (connection refused, host not found, TLS certificate not
// trusted, timed out after N s, ...). `stop` and a false from `progress` (called
// with bytes received and the announced total, or -1) abort within about a second (curl's progress
// interval when idle) and throw trace::Cancelled. Thread-safe: one curl handle per call.
HttpResponse http_fetch(const HttpRequest& request, const trace::StopToken& stop = {},
                        const trace::ProgressFn& progress = {});

// application/x-www-form-urlencoded of one value.
std::string url_encode(const std::string& text);

}  // namespace tokenscope::fleet
