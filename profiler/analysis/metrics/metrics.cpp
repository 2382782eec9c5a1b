#include "metrics.h"

#include <algorithm>
#include <unordered_set>

namespace tokenscope::analysis {
namespace {

using trace::Request;
using trace::Step;

// Requests that must not contribute anything: warm-up ones and failed ones.
struct RequestPass {
    std::unordered_set<std::int64_t> excluded;
};

RequestPass measure_requests(const trace::RunData& run, const MetricsOptions& options,
                             RunMetrics& m) {
    std::vector<const Request*> by_arrival;
    by_arrival.reserve(run.requests.size());
    for (const auto& r : run.requests) by_arrival.push_back(&r);
    std::stable_sort(by_arrival.begin(), by_arrival.end(), [](const Request* a, const Request* b) {
        return a->arrival_ns < b->arrival_ns;
    });

    RequestPass pass;
    std::int64_t first_arrival = 0, last_done = 0;
    bool any = false;
    for (std::size_t i = 0; i < by_arrival.size(); ++i) {
        const Request& r = *by_arrival[i];
        if (i < options.warmup_requests || r.failed) {
            pass.excluded.insert(r.id);
            ++(i < options.warmup_requests ? m.warmup_requests : m.failed_requests);
            continue;
        }
        ++m.requests;
        m.output_tokens += r.output_len;
        double ttft = static_cast<double>(r.first_token_ns - r.arrival_ns);
        double e2e = static_cast<double>(r.done_ns - r.arrival_ns);
        m.ttft_ns.push_back(ttft);
        m.e2e_ns.push_back(e2e);
        if (r.output_len > 1)
            m.tpot_ns.push_back((e2e - ttft) / static_cast<double>(r.output_len - 1));
        else
            ++m.tpot_undefined;
        first_arrival = any ? std::min(first_arrival, r.arrival_ns) : r.arrival_ns;
        last_done = any ? std::max(last_done, r.done_ns) : r.done_ns;
        any = true;
    }
    if (any && last_done > first_arrival)
        m.throughput_tok_s = static_cast<double>(m.output_tokens) * 1e9 /
                             static_cast<double>(last_done - first_arrival);
    return pass;
}

bool step_order(const Step& a, const Step& b) {
    return a.request != b.request ? a.request < b.request : a.index < b.index;
}

void measure_steps(const trace::RunData& run, const MetricsOptions& options,
                   const RequestPass& pass, RunMetrics& m) {
    // Steps normally come from the store in (request, index) order; sort a view otherwise.
    std::vector<const Step*> steps;
    steps.reserve(run.steps.size());
    for (const auto& s : run.steps) steps.push_back(&s);
    if (!std::is_sorted(run.steps.begin(), run.steps.end(), step_order))
        std::stable_sort(steps.begin(), steps.end(),
                         [](const Step* a, const Step* b) { return step_order(*a, *b); });

    std::size_t position = 0;  // of the step within its request
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Step& s = *steps[i];
        bool same_request = i > 0 && steps[i - 1]->request == s.request;
        position = same_request ? position + 1 : 0;
        if (position < options.warmup_steps) continue;
        if (!s.is_iteration() && pass.excluded.count(s.request)) continue;
        m.step_ns.push_back(static_cast<double>(s.duration_ns()));
        if (same_request && !s.is_iteration())
            m.itl_ns.push_back(static_cast<double>(s.end_ns - steps[i - 1]->end_ns));
    }
    m.steps = static_cast<std::int64_t>(m.step_ns.size());
}

// summarize() reorders its input; the returned sample vectors stay in their original order.
Distribution summarize_copy(const std::vector<double>& v) {
    std::vector<double> copy = v;
    return summarize(copy);
}

}  // namespace

RunMetrics compute_metrics(const trace::RunData& run, const MetricsOptions& options) {
    RunMetrics m;
    RequestPass pass = measure_requests(run, options, m);
    measure_steps(run, options, pass, m);
    m.ttft = summarize_copy(m.ttft_ns);
    m.tpot = summarize_copy(m.tpot_ns);
    m.itl = summarize_copy(m.itl_ns);
    m.e2e = summarize_copy(m.e2e_ns);
    m.step = summarize_copy(m.step_ns);
    return m;
}

}  // namespace tokenscope::analysis
