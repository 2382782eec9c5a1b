#include "serving_rebuilder.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <stdexcept>

namespace tokenscope::import::serving {
namespace {

std::int64_t seconds_to_ns(double s) {
    return static_cast<std::int64_t>(std::llround(s * 1e9));
}

const nlohmann::json* element(const nlohmann::json* arr, std::size_t i) {
    return arr != nullptr && i < arr->size() ? &(*arr)[i] : nullptr;
}

// A length beyond int32 (1e300 in a hostile file) reads as 0: a float to int
// conversion out of range is undefined behaviour.
std::int32_t int_at(const nlohmann::json* arr, std::size_t i) {
    const nlohmann::json* v = element(arr, i);
    if (v == nullptr || !v->is_number()) return 0;
    double d = v->get<double>();
    constexpr double kMin = std::numeric_limits<std::int32_t>::min();
    constexpr double kMax = std::numeric_limits<std::int32_t>::max();
    return d >= kMin && d <= kMax ? static_cast<std::int32_t>(d) : 0;
}

// vLLM writes the date as local "YYYYmmdd-HHMMSS"; read as UTC, it is close enough.
std::int64_t parse_date(const nlohmann::json& root) {
    auto it = root.find("date");
    if (it == root.end() || !it->is_string()) return 0;
    std::tm tm{};
    const std::string& text = it->get_ref<const std::string&>();
    if (strptime(text.c_str(), "%Y%m%d-%H%M%S", &tm) == nullptr) return 0;
    // %Y takes any number of digits; past the year 2262 nanoseconds overflow
    // int64 (found by fuzzing), and such a date is as good as none.
    constexpr std::time_t kMaxSeconds = std::numeric_limits<std::int64_t>::max() / 1'000'000'000;
    std::time_t seconds = timegm(&tm);
    if (seconds > kMaxSeconds || seconds < -kMaxSeconds) return 0;
    return static_cast<std::int64_t>(seconds) * 1'000'000'000;
}

}  // namespace

const nlohmann::json* ServingRebuilder::array(const char* key) const {
    auto it = root_.find(key);
    return it != root_.end() && it->is_array() ? &*it : nullptr;
}

std::vector<std::int64_t> ServingRebuilder::arrivals(std::size_t n, trace::RunData& run) const {
    std::vector<std::int64_t> out(n, 0);
    for (const char* key : {"start_times", "request_start_times"}) {
        const nlohmann::json* starts = array(key);
        if (starts == nullptr || starts->size() != n) continue;
        bool all_numbers = std::all_of(starts->begin(), starts->end(),
                                       [](const nlohmann::json& v) { return v.is_number(); });
        if (!all_numbers || n == 0) continue;
        // Relative to the first start, so epoch seconds keep sub-microsecond precision.
        double origin = std::numeric_limits<double>::infinity();
        for (const auto& v : *starts) origin = std::min(origin, v.get<double>());
        for (std::size_t i = 0; i < n; ++i)
            out[i] = seconds_to_ns((*starts)[i].get<double>() - origin);
        return out;
    }
    double rate = std::numeric_limits<double>::infinity();
    if (auto it = root_.find("request_rate"); it != root_.end() && it->is_number())
        rate = it->get<double>();
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
    r.input_len = int_at(array("input_lens"), i);
    r.output_len = int_at(array("output_lens"), i);
    const nlohmann::json* ttft = element(array("ttfts"), i);
    const nlohmann::json* error = element(array("errors"), i);
    bool has_error =
        error != nullptr && error->is_string() && !error->get_ref<const std::string&>().empty();
    bool no_ttft = ttft == nullptr || !ttft->is_number() || ttft->get<double>() <= 0.0;
    if (has_error || (no_ttft && r.output_len == 0) || ttft == nullptr || !ttft->is_number()) {
        r.failed = true;
        ++failed_;
        if (first_error_.empty() && has_error) first_error_ = error->get<std::string>();
        run.requests.push_back(r);
        return;
    }
    r.first_token_ns = arrival + seconds_to_ns(ttft->get<double>());
    run.steps.push_back(trace::Step{r.id, 0, trace::Phase::Prefill, arrival, r.first_token_ns, 0});
    std::int64_t emitted = r.first_token_ns;
    std::int32_t index = 1;
    if (const nlohmann::json* itls = element(array("itls"), i); itls && itls->is_array()) {
        for (const auto& itl : *itls) {
            if (!itl.is_number()) continue;
            std::int64_t next = emitted + seconds_to_ns(itl.get<double>());
            run.steps.push_back(trace::Step{r.id, index++, trace::Phase::Decode, emitted, next, 0});
            emitted = next;
        }
    }
    r.done_ns = emitted;
    if (r.output_len != 0 && r.output_len != index) ++count_mismatch_;
    run.requests.push_back(r);
}

std::string ServingRebuilder::workload_json() const {
    nlohmann::json header = {{"format", "bench"}};
    for (const auto& [key, value] : root_.items())
        if (!value.is_array() && !value.is_object()) header[key] = value;
    return header.dump();
}

trace::RunData ServingRebuilder::build() {
    const nlohmann::json* ttfts = array("ttfts");
    if (ttfts == nullptr) {
        if (root_.contains("mean_ttft_ms"))
            throw std::invalid_argument(
                "serving-benchmark result without per-request data (no \"ttfts\" array); save "
                "it with --save-result --save-detailed");
        throw std::invalid_argument("not a serving-benchmark result: no \"ttfts\" array");
    }
    trace::RunData run;
    run.info.source = trace::Source::Bench;
    run.info.clock = trace::ClockDomain::SourceFile;
    run.info.created_ns = parse_date(root_);
    run.info.workload_json = workload_json();
    run.info.complete = true;
    const std::size_t n = ttfts->size();
    for (const char* key : {"input_lens", "output_lens", "itls", "errors"}) {
        const nlohmann::json* a = array(key);
        if (a != nullptr && a->size() != n)
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
