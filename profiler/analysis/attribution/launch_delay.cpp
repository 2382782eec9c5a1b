#include "launch_delay.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "analysis/metrics/distribution.h"
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

// Correlated kernels with the end of their stream's queue: one pass in activity order,
// each lane's queue tracked as its work arrives in start order.
std::vector<Launched> launched_kernels(const trace::RunData& run, std::size_t count,
                                       const trace::StopToken& stop) {
    std::vector<std::int64_t> busy_until(std::size_t{1} << 16, kNever);  // per lane id
    std::vector<Launched> kernels;
    kernels.reserve(count);
    trace::for_each_in_activity_order(run.activities, stop, [&](const Activity& a) {
        if (!trace::is_gpu_operation(a.kind)) return;
        std::int64_t& busy = busy_until[a.lane];
        if (a.kind == ActivityKind::Kernel && a.correlation != 0)
            kernels.push_back({a.correlation, a.start_ns, busy});
        busy = std::max(busy, a.end_ns);
    });
    return kernels;
}

// The traced calls by correlation: (correlation, start), sorted. Counted first, so
// the vectors of a 10M-activity run are allocated once: growing them by doubling
// copied and page-faulted hundreds of megabytes, most of this rule's time.
struct Calls {
    std::vector<std::pair<std::uint32_t, std::int64_t>> sorted;
    std::size_t kernels = 0;  // correlated kernels, for launched_kernels' reserve
};

Calls traced_calls(const trace::RunData& run, const trace::StopToken& stop) {
    Calls out;
    std::size_t calls = 0;
    trace::for_each_stoppable(run.activities, stop, [&](const Activity& a) {
        if (a.correlation == 0) return;
        calls += a.kind == ActivityKind::Api;
        out.kernels += a.kind == ActivityKind::Kernel;
    });
    out.sorted.reserve(calls);
    trace::for_each_stoppable(run.activities, stop, [&](const Activity& a) {
        if (a.correlation != 0 && a.kind == ActivityKind::Api)
            out.sorted.emplace_back(a.correlation, a.start_ns);
    });
    // Calls are traced in correlation order, so this is usually one linear check.
    if (!std::is_sorted(out.sorted.begin(), out.sorted.end()))
        std::sort(out.sorted.begin(), out.sorted.end());
    return out;
}

// Correlation -> index of its first call: a table indexed by correlation when the ids
// are dense (CUPTI and the capture number them from 1), else a binary search.
class CallIndex {
  public:
    explicit CallIndex(const std::vector<std::pair<std::uint32_t, std::int64_t>>& calls)
        : calls_(calls) {
        if (calls.empty() || calls.size() >= std::numeric_limits<std::uint32_t>::max()) return;
        const std::uint64_t top = calls.back().first;
        if (top > 4 * calls.size() + 4096) return;
        table_.assign(static_cast<std::size_t>(top) + 1, 0);
        for (std::size_t i = calls.size(); i-- > 0;)
            table_[calls[i].first] = static_cast<std::uint32_t>(i + 1);
    }
    std::ptrdiff_t find(std::uint32_t correlation) const {
        if (!table_.empty())
            return correlation < table_.size() ? std::ptrdiff_t{table_[correlation]} - 1 : -1;
        auto it =
            std::lower_bound(calls_.begin(), calls_.end(), std::make_pair(correlation, kNever));
        return it == calls_.end() || it->first != correlation ? -1 : it - calls_.begin();
    }

  private:
    const std::vector<std::pair<std::uint32_t, std::int64_t>>& calls_;
    std::vector<std::uint32_t> table_;  // call index + 1; 0: no call
};

}  // namespace

// A bare "kernel start minus its API call start" misleads: on a real capture the host
// runs ahead of a busy GPU, so that raw gap measures the queue (a GPU-bound run) rather
// than a slow launch (docs/attribution.md defines what is measured instead). Only the
// part of the wait the stream's own queue does not explain is the CPU's. One call may
// launch many kernels (a cudaGraphLaunch): only the first of them (by start) waits for
// the host; the others wait for their predecessors in the graph, so their delay is 0.
// Measuring each from the one call would grow with its position in the graph and read
// a CUDA-graph decode as CPU-bound.
std::optional<double> launch_delay_p95(const trace::RunData& run, const trace::StopToken& stop) {
    const Calls traced = traced_calls(run, stop);
    const auto& calls = traced.sorted;
    std::vector<Launched> kernels = launched_kernels(run, traced.kernels, stop);
    // Per call (its first entry in `calls`): the earliest start of the kernels it launched,
    // then kNever once that kernel has been measured.
    std::vector<std::int64_t> first(calls.size(), std::numeric_limits<std::int64_t>::max());
    const CallIndex index(calls);
    trace::for_each_stoppable(kernels, stop, [&](Launched& k) {
        const std::ptrdiff_t c = index.find(k.correlation);
        if (c >= 0 && !within_launch_horizon(k.start, calls[c].second)) {
            k.correlation = 0;  // too far from its call to be its launch
            return;
        }
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
