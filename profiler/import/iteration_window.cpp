#include "iteration_window.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace tokenscope::import {
namespace {

struct Call {
    std::int64_t start_ns;
    std::uint32_t correlation;
};

}  // namespace

std::size_t extend_to_gpu_work(trace::RunData& run, std::vector<trace::Step>& steps,
                               const std::vector<int>& host_lane) {
    // The lanes that launched some step's work: only their API calls are needed.
    std::vector<char> wanted(run.lanes.size(), 0);
    bool any = false;
    for (std::size_t i = 0; i < steps.size() && i < host_lane.size(); ++i) {
        if (host_lane[i] < 0 || static_cast<std::size_t>(host_lane[i]) >= wanted.size()) continue;
        wanted[static_cast<std::size_t>(host_lane[i])] = 1;
        any = true;
    }
    if (!any) return 0;

    std::unordered_map<std::uint32_t, std::int64_t> gpu_end;  // correlation -> last end
    std::unordered_map<int, std::vector<Call>> calls;         // host lane -> its API calls
    for (const auto& a : run.activities) {
        if (a.correlation == 0) continue;
        if (trace::is_gpu_operation(a.kind)) {
            auto [it, fresh] = gpu_end.try_emplace(a.correlation, a.end_ns);
            if (!fresh) it->second = std::max(it->second, a.end_ns);
        } else if ((a.kind == trace::ActivityKind::Api || a.kind == trace::ActivityKind::Sync) &&
                   a.lane < wanted.size() && wanted[a.lane]) {
            calls[a.lane].push_back({a.start_ns, a.correlation});
        }
    }
    for (auto& [lane, list] : calls)
        std::sort(list.begin(), list.end(),
                  [](const Call& x, const Call& y) { return x.start_ns < y.start_ns; });

    std::size_t extended = 0;
    std::int64_t longest = 0;
    for (std::size_t i = 0; i < steps.size() && i < host_lane.size(); ++i) {
        trace::Step& s = steps[i];
        auto it = calls.find(host_lane[i]);
        if (it == calls.end() || s.marker_end_ns == 0) continue;
        const auto& list = it->second;
        auto from = std::lower_bound(list.begin(), list.end(), s.start_ns,
                                     [](const Call& c, std::int64_t t) { return c.start_ns < t; });
        std::int64_t end = s.end_ns;
        for (auto c = from; c != list.end() && c->start_ns <= s.marker_end_ns; ++c)
            if (auto g = gpu_end.find(c->correlation); g != gpu_end.end())
                end = std::max(end, g->second);
        if (end > s.end_ns) {
            longest = std::max(longest, end - s.marker_end_ns);
            s.end_ns = end;
            ++extended;
        }
    }
    if (extended > 0) {
        char text[200];
        std::snprintf(text, sizeof text,
                      "iterations extended past their marker to the end of the GPU work "
                      "launched inside it (up to %.3f ms later)",
                      static_cast<double>(longest) / 1e6);
        run.count_diagnostic("iteration_window", trace::Severity::Info,
                             static_cast<double>(extended), text);
    }
    return extended;
}

}  // namespace tokenscope::import
