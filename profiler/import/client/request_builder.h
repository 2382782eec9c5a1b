#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import::client {

// One request as a load generator recorded it, times in ns of the file's clock
// (epoch ns where the tool writes absolute times).
struct ClientRequest {
    std::optional<std::int64_t> arrival_ns;
    // Emission time of every streamed chunk; the first is the first token.
    std::vector<std::int64_t> emissions;
    std::int32_t input_len = 0;
    std::int32_t output_len = 0;  // 0: the number of emissions
    bool failed = false;
    std::string error;  // the tool's error text for failed requests
};

// Turns client records into trace::Request and one trace::Step per emission
// (prefill for the first token, decode after). Requests with missing times or
// times running backwards are left out and counted: nothing is dropped silently.
class RequestBuilder {
  public:
    explicit RequestBuilder(trace::RunData& run) : run_(run) {}
    void add(const ClientRequest& request);
    // Adds the diagnostics of what was left out or failed.
    void finish();
    std::int64_t added() const { return next_id_ - 1; }

  private:
    trace::RunData& run_;
    std::int64_t next_id_ = 1;  // step.request 0 means "no request"
    std::int64_t failed_ = 0, missing_ = 0, backwards_ = 0, length_mismatch_ = 0;
    std::string first_error_;
};

}  // namespace tokenscope::import::client
