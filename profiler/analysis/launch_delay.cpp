#include "launch_delay.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "distribution.h"
#include "trace/activity_order.h"

namespace tokenscope::analysis {
namespace {

using trace::Activity;
using trace::ActivityKind;

constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::min();

struct Launched {
    std::uint32_t correlation;
    std::int64_t start;
    std::int64_t queued;  // the latest end of the work that started before it on its stream
};

bool is_stream_work(const Activity& a) {
    return a.kind == ActivityKind::Kernel || a.kind == ActivityKind::Memcpy ||
           a.kind == ActivityKind::Memset;
}

// Correlated kernels with the end of their stream's queue: one pass in activity order,
// each lane's queue tracked as its work arrives in start order.
std::vector<Launched> launched_kernels(const trace::RunData& run, const trace::StopToken& stop) {
    std::vector<std::int64_t> busy_until(std::size_t{1} << 16, kNever);  // per lane id
    std::vector<Launched> kernels;
    trace::for_each_in_activity_order(run.activities, stop, [&](const Activity& a) {
        if (!is_stream_work(a)) return;
        std::int64_t& busy = busy_until[a.lane];
        if (a.kind == ActivityKind::Kernel && a.correlation != 0)
            kernels.push_back({a.correlation, a.start_ns, busy});
        busy = std::max(busy, a.end_ns);
    });
    return kernels;
}

}  // namespace

// DESIGN.md says "kernel start minus its API call start"; on a real capture the host
// runs ahead of a busy GPU, so that raw gap measures the queue (a GPU-bound run) rather
// than a slow launch. Only the part of the wait the stream's own queue does not explain
// is the CPU's. One call may launch many kernels (a cudaGraphLaunch): only the first of
// them (by start) waits for the host; the others wait for their predecessors in the
// graph, so their delay is 0. Measuring each from the one call would grow with its
// position in the graph and read a CUDA-graph decode as CPU-bound.
std::optional<double> launch_delay_p95(const trace::RunData& run, const trace::StopToken& stop) {
    std::vector<std::pair<std::uint32_t, std::int64_t>> calls;  // (correlation, start)
    trace::for_each_stoppable(run.activities, stop, [&](const Activity& a) {
        if (a.correlation != 0 && a.kind == ActivityKind::Api)
            calls.emplace_back(a.correlation, a.start_ns);
    });
    // Calls are traced in correlation order, so this is usually one linear check.
    if (!std::is_sorted(calls.begin(), calls.end())) std::sort(calls.begin(), calls.end());
    std::vector<Launched> kernels = launched_kernels(run, stop);
    // Per call (its first entry in `calls`): the earliest start of the kernels it launched,
    // then kNever once that kernel has been measured.
    std::vector<std::int64_t> first(calls.size(), std::numeric_limits<std::int64_t>::max());
    auto call_of = [&](std::uint32_t correlation) -> std::ptrdiff_t {
        auto it = std::lower_bound(calls.begin(), calls.end(), std::make_pair(correlation, kNever));
        return it == calls.end() || it->first != correlation ? -1 : it - calls.begin();
    };
    trace::for_each_stoppable(kernels, stop, [&](Launched& k) {
        const std::ptrdiff_t c = call_of(k.correlation);
        k.correlation = static_cast<std::uint32_t>(c + 1);  // from here on: call index + 1
        if (c >= 0) first[c] = std::min(first[c], k.start);
    });
    std::vector<double> delays;
    delays.reserve(kernels.size());
    trace::for_each_stoppable(kernels, stop, [&](const Launched& k) {
        if (k.correlation == 0) return;  // no traced call
        const std::size_t c = k.correlation - 1;
        if (first[c] != k.start) {
            delays.push_back(0.0);  // launched by the same call as an earlier kernel
            return;
        }
        first[c] = kNever;
        const std::int64_t ready = std::max(calls[c].second, k.queued);
        delays.push_back(static_cast<double>(std::max<std::int64_t>(0, k.start - ready)));
    });
    if (delays.empty()) return std::nullopt;
    return percentile(delays, 95);
}

}  // namespace tokenscope::analysis
