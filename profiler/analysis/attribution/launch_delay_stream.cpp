#include "launch_delay_stream.h"

#include <algorithm>

#include "analysis/metrics/distribution.h"
#include "launch_delay.h"

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
    forget_before(t0);
    added_.emplace_back();
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

// Everything from t0 on starts at t0 or later: a call or early kernel whose stretch ended
// more than the horizon before can match nothing still to come.
void LaunchDelayStream::forget_before(std::int64_t t0) {
    std::int64_t cutoff = 0;
    if (__builtin_sub_overflow(t0, kLaunchHorizonNs, &cutoff)) return;
    while (!added_.empty() && added_.front().latest < cutoff) {
        for (std::uint32_t c : added_.front().calls)
            if (auto it = calls_.find(c); it != calls_.end() && it->second.start < cutoff)
                calls_.erase(it);
        for (std::uint32_t c : added_.front().early)
            if (auto it = early_.find(c);
                it != early_.end() &&
                *std::max_element(it->second.begin(), it->second.end()) < cutoff)
                early_.erase(it);
        added_.pop_front();
    }
}

// The earliest call of a correlation id counts, as launch_delay_p95's search finds.
void LaunchDelayStream::add_calls(std::span<const trace::Activity> acts, std::int64_t t0) {
    Added& added = added_.back();
    for (const trace::Activity& a : acts) {
        if (a.kind != ActivityKind::Api || a.correlation == 0 || a.start_ns < t0) continue;
        const auto [it, fresh] = calls_.try_emplace(a.correlation, Call{a.start_ns});
        Call& call = it->second;
        if (!fresh) {
            if (!call.measured) call.start = std::min(call.start, a.start_ns);
            continue;
        }
        added.calls.push_back(a.correlation);
        added.latest = std::max(added.latest, a.start_ns);
        if (auto early = early_.find(a.correlation); early != early_.end()) {
            // Its kernels that started before it, within the horizon: delay 0.
            const auto n = std::count_if(
                early->second.begin(), early->second.end(),
                [&](std::int64_t start) { return within_launch_horizon(start, a.start_ns); });
            early_.erase(early);
            if (n == 0) continue;
            record(0, static_cast<std::uint64_t>(n));
            call.measured = true;
        }
    }
    last_call_ = nullptr;  // the map may have rehashed
}

void LaunchDelayStream::find_first_kernels(std::span<const trace::Activity> acts, std::int64_t t0) {
    for (const trace::Activity& a : acts) {
        if (a.kind != ActivityKind::Kernel || a.correlation == 0 || a.start_ns < t0) continue;
        Call* call = call_of(a.correlation);
        if (call == nullptr || call->measured || !within_launch_horizon(a.start_ns, call->start))
            continue;
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
                early_[a.correlation].push_back(a.start_ns);
                added_.back().early.push_back(a.correlation);
                added_.back().latest = std::max(added_.back().latest, a.start_ns);
            } else if (!within_launch_horizon(a.start_ns, call->start)) {
                // too far from its call to be its launch: not measured
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
