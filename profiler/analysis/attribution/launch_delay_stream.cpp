#include "launch_delay_stream.h"

#include <algorithm>

#include "analysis/metrics/distribution.h"

namespace tokenscope::analysis {

using trace::ActivityKind;

LaunchDelayStream::LaunchDelayStream(std::size_t exact_delays, std::size_t kernels)
    : exact_delays_(exact_delays) {
    exact_.reserve(std::min(exact_delays, kernels));
}

// launch_delay_p95's rules, a stretch at a time: every call of the stretch is known before
// its kernels are measured (a kernel that starts before its call then measures 0, as
// there); a call's first kernel by start (ties: the first in lane order) is measured and
// the rest count 0; a stream's queue is the work its lane ran so far, in start order.
// Stretches come in time order, so a call's first kernel is in the first stretch holding
// any of its kernels.
void LaunchDelayStream::add(std::span<const trace::Activity> acts,
                            std::span<const std::size_t> lane_ends, std::int64_t t0) {
    ++stretch_;
    last_call_ = nullptr;
    add_calls(acts, t0);
    find_first_kernels(acts, t0);
    std::size_t begin = 0;
    for (std::size_t end : lane_ends) {
        measure(acts.subspan(begin, end - begin), t0);
        begin = end;
    }
}

LaunchDelayStream::Call* LaunchDelayStream::call_of(std::uint32_t correlation) {
    if (last_call_ != nullptr && last_correlation_ == correlation) return last_call_;
    auto it = calls_.find(correlation);
    if (it == calls_.end()) return nullptr;
    last_correlation_ = correlation;
    return last_call_ = &it->second;
}

// The earliest call of a correlation id counts, as launch_delay_p95's search finds.
void LaunchDelayStream::add_calls(std::span<const trace::Activity> acts, std::int64_t t0) {
    for (const trace::Activity& a : acts) {
        if (a.kind != ActivityKind::Api || a.correlation == 0 || a.start_ns < t0) continue;
        const auto [it, fresh] = calls_.try_emplace(a.correlation, Call{a.start_ns});
        Call& call = it->second;
        if (!fresh) {
            if (!call.measured) call.start = std::min(call.start, a.start_ns);
            continue;
        }
        if (auto early = early_.find(a.correlation); early != early_.end()) {
            record(0, early->second);  // its kernels started before it: delay 0
            early_.erase(early);
            call.measured = true;
        }
    }
    last_call_ = nullptr;  // the map may have rehashed
}

void LaunchDelayStream::find_first_kernels(std::span<const trace::Activity> acts, std::int64_t t0) {
    for (const trace::Activity& a : acts) {
        if (a.kind != ActivityKind::Kernel || a.correlation == 0 || a.start_ns < t0) continue;
        Call* call = call_of(a.correlation);
        if (call == nullptr || call->measured) continue;
        if (call->seen != stretch_) {
            call->seen = stretch_;
            call->first_start = a.start_ns;
        } else {
            call->first_start = std::min(call->first_start, a.start_ns);
        }
    }
}

// One lane's activities of the stretch, by start.
void LaunchDelayStream::measure(std::span<const trace::Activity> acts, std::int64_t t0) {
    for (const trace::Activity& a : acts) {
        if (a.start_ns < t0 || !trace::is_gpu_operation(a.kind)) continue;
        std::int64_t& busy = busy_until_[a.lane];
        if (a.kind == ActivityKind::Kernel && a.correlation != 0) {
            Call* call = call_of(a.correlation);
            if (call == nullptr) {
                ++early_[a.correlation];
            } else if (call->measured || a.start_ns != call->first_start) {
                record(0);  // launched by the same call as an earlier kernel
            } else {
                const std::int64_t ready = std::max(call->start, busy);
                record(std::max<std::int64_t>(0, a.start_ns - ready));
                call->measured = true;
            }
        }
        busy = std::max(busy, a.end_ns);
    }
}

void LaunchDelayStream::record(std::int64_t delay_ns, std::uint64_t n) {
    if (!folded_ && exact_.size() + n > exact_delays_) {
        for (double d : exact_) histogram_.add(static_cast<std::int64_t>(d));
        exact_ = {};
        folded_ = true;
    }
    if (folded_) {
        histogram_.add(delay_ns, n);
        return;
    }
    exact_.insert(exact_.end(), n, static_cast<double>(delay_ns));
}

LaunchDelayP95 LaunchDelayStream::take_p95() {
    if (folded_) return {histogram_.percentile(0.95), store::DurationHistogram::kRelativeError};
    if (exact_.empty()) return {};
    return {percentile(exact_, 95), 0.0};
}

}  // namespace tokenscope::analysis
