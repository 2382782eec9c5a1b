#include "server_trace_view.h"

#include <algorithm>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace tokenscope::exporter {
namespace {

constexpr std::int64_t kEpoch2001Ns = 978'307'200'000'000'000;
constexpr std::int64_t kEpoch2026Ns = 1'767'225'600'000'000'000;

bool is_token(const trace::Step& s) {
    return !s.is_iteration() && s.request != 0;
}

struct Emission {
    std::int64_t end_ns;
    std::int64_t start_ns;
    std::int64_t request;
    bool prefill;
};

// vLLM v1's GPU worker marker: prefill (context) requests and their prompt tokens,
// decode (generation) requests and the tokens they emitted.
std::string vllm_marker(const trace::BatchComposition& b) {
    return "execute_context_" + std::to_string(b.prefill_requests) + "(" +
           std::to_string(b.prefill_tokens) + ")_generation_" + std::to_string(b.decode_requests) +
           "(" + std::to_string(b.decode_tokens) + ")";
}

// One iteration per instant at which tokens came out, with its batch.
void add_iterations(const trace::RunData& run, std::int64_t shift, trace::RunData& view) {
    std::vector<Emission> tokens;
    for (const auto& s : run.steps)
        if (is_token(s))
            tokens.push_back({s.end_ns, s.start_ns, s.request, s.phase == trace::Phase::Prefill});
    std::sort(tokens.begin(), tokens.end(),
              [](const Emission& a, const Emission& b) { return a.end_ns < b.end_ns; });
    std::unordered_map<std::int64_t, std::int32_t> prompt;
    for (const auto& r : run.requests) prompt[r.id] = r.input_len;
    std::int64_t pid = 0;
    for (const auto& lane : run.lanes) pid = std::max(pid, lane.process);
    const auto lane = static_cast<std::uint16_t>(view.lanes.size());
    view.lanes.push_back({trace::LaneKind::CpuThread, -1, pid, 1'000'000, "engine iterations"});
    std::int64_t previous_end = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < tokens.size();) {
        const std::int64_t end = tokens[i].end_ns;
        trace::BatchComposition b{0, 0, 0, 0};
        std::unordered_set<std::int64_t> decoding;
        std::int64_t start = end;
        for (; i < tokens.size() && tokens[i].end_ns == end; ++i) {
            start = std::min(start, tokens[i].start_ns);
            if (tokens[i].prefill) {
                ++b.prefill_requests;
                auto it = prompt.find(tokens[i].request);
                b.prefill_tokens += it == prompt.end() ? 0 : it->second;
            } else {
                ++b.decode_tokens;
                decoding.insert(tokens[i].request);
            }
        }
        b.decode_requests = static_cast<std::int32_t>(decoding.size());
        trace::Activity a;
        a.kind = trace::ActivityKind::Range;
        a.lane = lane;
        a.start_ns =
            (previous_end == std::numeric_limits<std::int64_t>::min() ? start : previous_end) +
            shift;
        a.end_ns = end + shift;
        a.name = view.strings.intern(vllm_marker(b));
        view.activities.push_back(a);
        previous_end = end;
    }
}

}  // namespace

bool has_token_steps(const trace::RunData& run) {
    return std::any_of(run.steps.begin(), run.steps.end(), is_token);
}

std::int64_t unix_time_shift(const trace::RunData& run) {
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (const auto& r : run.requests) first = std::min(first, r.arrival_ns);
    for (const auto& s : run.steps) first = std::min(first, s.start_ns);
    for (const auto& a : run.activities) first = std::min(first, a.start_ns);
    if (first == std::numeric_limits<std::int64_t>::max()) first = 0;
    const std::int64_t base =
        run.info.created_ns > kEpoch2001Ns ? run.info.created_ns : kEpoch2026Ns;
    return base - first;
}

trace::RunData server_trace_view(const trace::RunData& run, std::int64_t shift) {
    // Field by field rather than a copy of the whole run: the token steps and requests
    // are the client's side. CUDA graph nodes are keyed by start time and stay behind
    // (our own runs have none).
    trace::RunData view;
    view.info = run.info;  // the trace's otherData keeps saying what made it (a model run)
    view.strings = run.strings;
    view.lanes = run.lanes;
    view.activities = run.activities;
    for (auto& a : view.activities) {
        a.start_ns += shift;
        a.end_ns += shift;
    }
    view.counters = run.counters;
    for (auto& c : view.counters) c.time_ns += shift;
    view.launches = run.launches;
    add_iterations(run, shift, view);
    return view;
}

}  // namespace tokenscope::exporter
