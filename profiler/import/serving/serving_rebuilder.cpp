#include "serving_rebuilder.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <stdexcept>

#include "serving_figures.h"

namespace tokenscope::import::serving {
namespace {

std::int64_t seconds_to_ns(double s) {
    return static_cast<std::int64_t>(std::llround(s * 1e9));
}

// A length beyond int32 (1e300 in a hostile file) reads as 0: a float to int
// conversion out of range is undefined behaviour.
std::int32_t int_at(json::Value arr, std::size_t i) {
    const json::Value v = arr[i];
    if (!v.is_number()) return 0;
    const double d = v.number();
    constexpr double kMin = std::numeric_limits<std::int32_t>::min();
    constexpr double kMax = std::numeric_limits<std::int32_t>::max();
    return d >= kMin && d <= kMax ? static_cast<std::int32_t>(d) : 0;
}

// vLLM writes the date as local "YYYYmmdd-HHMMSS"; read as UTC, it is close enough.
std::int64_t parse_date(json::Value root) {
    const json::Value date = root.find("date");
    if (!date.is_string()) return 0;
    std::tm tm{};
    const std::string text(date.string());
    if (strptime(text.c_str(), "%Y%m%d-%H%M%S", &tm) == nullptr) return 0;
    // %Y takes any number of digits; past the year 2262 nanoseconds overflow
    // int64 (found by fuzzing), and such a date is as good as none.
    constexpr std::time_t kMaxSeconds = std::numeric_limits<std::int64_t>::max() / 1'000'000'000;
    std::time_t seconds = timegm(&tm);
    if (seconds > kMaxSeconds || seconds < -kMaxSeconds) return 0;
    return static_cast<std::int64_t>(seconds) * 1'000'000'000;
}

}  // namespace

ServingRebuilder::ServingRebuilder(json::Value root)
    : root_(root),
      ttfts_(array("ttfts")),
      itls_(array("itls")),
      input_lens_(array("input_lens")),
      output_lens_(array("output_lens")),
      errors_(array("errors")) {}

json::Value ServingRebuilder::array(const char* key) const {
    const json::Value v = root_.find(key);
    return v.is_array() ? v : json::Value();
}

std::vector<std::int64_t> ServingRebuilder::arrivals(std::size_t n, trace::RunData& run) const {
    std::vector<std::int64_t> out(n, 0);
    for (const char* key : {"start_times", "request_start_times"}) {
        const json::Value starts = array(key);
        if (!starts || starts.size() != n || n == 0) continue;
        bool all_numbers = true;
        for (std::size_t i = 0; i < n; ++i) all_numbers = all_numbers && starts[i].is_number();
        if (!all_numbers) continue;
        // Relative to the first start, so epoch seconds keep sub-microsecond precision.
        double origin = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < n; ++i) origin = std::min(origin, starts[i].number());
        for (std::size_t i = 0; i < n; ++i) out[i] = seconds_to_ns(starts[i].number() - origin);
        return out;
    }
    double rate = std::numeric_limits<double>::infinity();
    if (const json::Value r = root_.find("request_rate"); r.is_number()) rate = r.number();
    if (std::isfinite(rate) && rate > 0)
        for (std::size_t i = 0; i < n; ++i)
            out[i] = static_cast<std::int64_t>(std::llround(static_cast<double>(i) * 1e9 / rate));
    run.count_diagnostic(
        "synthesised_arrival_times", trace::Severity::Info, static_cast<double>(n),
        "the results file has no per-request start times: arrival of request i is i / "
        "request_rate seconds (0 for an infinite rate), not the benchmark's random arrivals");
    return out;
}

void ServingRebuilder::add_request(std::size_t i, std::int64_t arrival, trace::RunData& run) {
    trace::Request r;
    r.id = static_cast<std::int64_t>(i) + 1;  // step.request 0 means "no request"
    r.arrival_ns = r.first_token_ns = r.done_ns = arrival;
    r.input_len = int_at(input_lens_, i);
    r.output_len = int_at(output_lens_, i);
    const json::Value ttft = ttfts_[i];
    const json::Value error = errors_[i];
    const bool has_error = error.is_string() && !error.string().empty();
    const bool no_ttft = !ttft.is_number() || ttft.number() <= 0.0;
    if (has_error || (no_ttft && r.output_len == 0) || !ttft.is_number()) {
        r.failed = true;
        ++failed_;
        if (first_error_.empty() && has_error) first_error_ = std::string(error.string());
        run.requests.push_back(r);
        return;
    }
    r.first_token_ns = arrival + seconds_to_ns(ttft.number());
    run.steps.push_back(trace::Step{r.id, 0, trace::Phase::Prefill, arrival, r.first_token_ns, 0});
    std::int64_t emitted = r.first_token_ns;
    std::int32_t index = 1;
    if (const json::Value itls = itls_[i]; itls.is_array()) {
        for (std::size_t k = 0; k < itls.size(); ++k) {
            const json::Value itl = itls[k];
            if (!itl.is_number()) continue;
            std::int64_t next = emitted + seconds_to_ns(itl.number());
            run.steps.push_back(trace::Step{r.id, index++, trace::Phase::Decode, emitted, next, 0});
            emitted = next;
        }
    }
    r.done_ns = emitted;
    if (r.output_len != 0 && r.output_len != index) ++count_mismatch_;
    run.requests.push_back(r);
}

trace::RunData ServingRebuilder::build() {
    if (!ttfts_) {
        if (root_.find("mean_ttft_ms"))
            throw std::invalid_argument(
                "serving-benchmark result without per-request data (no \"ttfts\" array); save "
                "it with --save-result --save-detailed");
        throw std::invalid_argument("not a serving-benchmark result: no \"ttfts\" array");
    }
    trace::RunData run;
    run.info.source = trace::Source::Bench;
    run.info.clock = trace::ClockDomain::SourceFile;
    run.info.created_ns = parse_date(root_);
    run.info.workload_json = result_header(root_);
    run.info.complete = true;
    const std::size_t n = ttfts_.size();
    for (const char* key : {"input_lens", "output_lens", "itls", "errors"}) {
        const json::Value a = array(key);
        if (a && a.size() != n)
            run.count_diagnostic(
                "serving_array_length_mismatch", trace::Severity::DataLoss, 1,
                std::string("per-request arrays differ in length from ttfts: ") + key);
    }
    std::vector<std::int64_t> arrival = arrivals(n, run);
    for (std::size_t i = 0; i < n; ++i) add_request(i, arrival[i], run);
    if (failed_ > 0)
        run.count_diagnostic(
            "failed_requests", trace::Severity::DataLoss, static_cast<double>(failed_),
            "requests that failed (an error, or no first token and no output)" +
                (first_error_.empty() ? std::string() : "; first error: " + first_error_));
    if (count_mismatch_ > 0)
        run.count_diagnostic("itl_token_count_mismatch", trace::Severity::Info,
                             static_cast<double>(count_mismatch_),
                             "requests whose output_len differs from 1 + the number of ITLs "
                             "(streamed chunks of several tokens); steps follow the ITLs");
    return run;
}

}  // namespace tokenscope::import::serving
