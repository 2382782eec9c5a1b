#include "request_builder.h"

#include <algorithm>

namespace tokenscope::import::client {

void RequestBuilder::add(const ClientRequest& in) {
    if (!in.arrival_ns) {
        ++missing_;
        return;
    }
    trace::Request r;
    r.arrival_ns = r.first_token_ns = r.done_ns = *in.arrival_ns;
    r.input_len = in.input_len;
    if (in.failed) {
        r.id = next_id_++;
        r.failed = true;
        r.output_len = in.output_len;
        ++failed_;
        if (first_error_.empty()) first_error_ = in.error;
        run_.requests.push_back(r);
        return;
    }
    if (in.emissions.empty()) {
        ++missing_;
        return;
    }
    // A chunk before its predecessor (or before the request) is a negative
    // latency: the record is wrong, and a step of negative length would poison
    // every percentile.
    if (in.emissions.front() < r.arrival_ns ||
        !std::is_sorted(in.emissions.begin(), in.emissions.end())) {
        ++backwards_;
        return;
    }
    r.id = next_id_++;
    r.first_token_ns = in.emissions.front();
    r.done_ns = in.emissions.back();
    const auto chunks = static_cast<std::int32_t>(in.emissions.size());
    r.output_len = in.output_len > 0 ? in.output_len : chunks;
    if (r.output_len != chunks) ++length_mismatch_;
    run_.steps.push_back(
        trace::Step{r.id, 0, trace::Phase::Prefill, r.arrival_ns, r.first_token_ns, 0, {}});
    for (std::int32_t i = 1; i < chunks; ++i)
        run_.steps.push_back(trace::Step{
            r.id, i, trace::Phase::Decode, in.emissions[i - 1], in.emissions[i], 0, {}});
    run_.requests.push_back(r);
}

void RequestBuilder::finish() {
    using trace::Severity;
    if (failed_ > 0)
        run_.count_diagnostic(
            "failed_requests", Severity::DataLoss, static_cast<double>(failed_),
            "requests the load generator reports as failed" +
                (first_error_.empty() ? std::string() : "; first error: " + first_error_));
    if (missing_ > 0)
        run_.count_diagnostic("client_missing_times", Severity::DataLoss,
                              static_cast<double>(missing_),
                              "records without a start time or a first-token time, left out");
    if (backwards_ > 0)
        run_.count_diagnostic("client_negative_latency", Severity::DataLoss,
                              static_cast<double>(backwards_),
                              "records with a negative TTFT or inter-token latency (a token "
                              "before the request or its predecessor), left out");
    if (length_mismatch_ > 0)
        run_.count_diagnostic("itl_token_count_mismatch", Severity::Info,
                              static_cast<double>(length_mismatch_),
                              "requests whose output length differs from the number of streamed "
                              "chunks (chunks of several tokens); steps follow the chunks");
}

}  // namespace tokenscope::import::client
