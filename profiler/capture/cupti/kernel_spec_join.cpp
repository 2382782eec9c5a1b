#include "kernel_spec_join.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace tokenscope::capture::cupti {

void KernelSpecJoin::add_iteration(const kernels::IterationPlan& plan, std::int64_t begin_ns,
                                   std::int64_t end_ns) {
    std::vector<Spec> specs;
    specs.reserve(plan.kernels.size());
    for (const auto& k : plan.kernels) specs.push_back({std::string(k.name()), k.flops, k.bytes()});
    add_window(begin_ns, end_ns, std::move(specs));
}

void KernelSpecJoin::add_window(std::int64_t begin_ns, std::int64_t end_ns,
                                std::vector<Spec> specs) {
    std::lock_guard lock(mutex_);
    incoming_.push_back({begin_ns, end_ns, std::move(specs)});
}

// One call may launch many kernels (a cudaGraphLaunch), whose records may come before
// or after the call's: the call stays known until a window settles past it.
void KernelSpecJoin::add_launch(std::uint32_t correlation, std::int64_t start_ns) {
    launches_[correlation] = start_ns;
    if (auto it = pending_.find(correlation); it != pending_.end()) {
        for (auto& k : it->second) located_.push_back({start_ns, k});
        pending_count_ -= it->second.size();
        pending_.erase(it);
    }
}

void KernelSpecJoin::add_kernel(const trace::Activity& kernel) {
    if (auto it = launches_.find(kernel.correlation); it != launches_.end()) {
        located_.push_back({it->second, kernel});
        return;
    }
    pending_[kernel.correlation].push_back(kernel);
    ++pending_count_;
}

void KernelSpecJoin::take_windows() {
    std::lock_guard lock(mutex_);
    for (auto& w : incoming_) {
        horizon_ns_ = std::max(horizon_ns_, w.end_ns);
        windows_.push_back(std::move(w));
    }
    incoming_.clear();
}

bool KernelSpecJoin::settle_window(const Window& w, const Intern& intern, const Emit& emit) {
    auto inside = [&](const Located& l) {
        return l.launch_ns >= w.begin_ns && l.launch_ns <= w.end_ns;
    };
    const auto count =
        static_cast<std::size_t>(std::count_if(located_.begin(), located_.end(), inside));
    if (count != w.specs.size()) return false;
    std::vector<Located> mine;
    std::vector<Located> rest;
    for (auto& l : located_) (inside(l) ? mine : rest).push_back(std::move(l));
    located_ = std::move(rest);
    // Launch order: one driving thread, so start time, then correlation id (CUPTI
    // hands them out in call order) for calls the clock cannot tell apart; the
    // kernels of one graph launch run in the order they were captured, on one stream.
    std::sort(mine.begin(), mine.end(), [](const Located& a, const Located& b) {
        return std::tie(a.launch_ns, a.kernel.correlation, a.kernel.start_ns) <
               std::tie(b.launch_ns, b.kernel.correlation, b.kernel.start_ns);
    });
    for (std::size_t i = 0; i < mine.size(); ++i) {
        trace::Activity a = mine[i].kernel;
        const Spec& spec = w.specs[i];
        cuda_names_.try_emplace(spec.name, a.name);
        a.name = intern(spec.name);
        a.flops = static_cast<float>(spec.flops);
        a.bytes = spec.bytes;
        emit(a);
        ++joined_;
    }
    // Launch calls left in a settled window have no kernel of the workload (a driver
    // call nested in a runtime launch): nothing will claim them.
    std::erase_if(launches_, [&](const auto& kv) { return kv.second <= w.end_ns; });
    return true;
}

void KernelSpecJoin::emit_unclaimed(const Emit& emit) {
    // Located kernels launched before the latest window's end and outside every
    // unsettled window belong to no iteration (set-up work): out as they are.
    auto claimed = [&](const Located& l) {
        if (l.launch_ns > horizon_ns_) return true;
        return std::any_of(windows_.begin(), windows_.end(), [&](const Window& w) {
            return l.launch_ns >= w.begin_ns && l.launch_ns <= w.end_ns;
        });
    };
    std::vector<Located> keep;
    for (auto& l : located_) {
        if (claimed(l)) {
            keep.push_back(std::move(l));
        } else {
            emit(l.kernel);
            ++unmatched_;
        }
    }
    located_ = std::move(keep);
}

void KernelSpecJoin::settle(const Intern& intern, const Emit& emit) {
    take_windows();
    std::erase_if(windows_, [&](const Window& w) { return settle_window(w, intern, emit); });
    emit_unclaimed(emit);
}

void KernelSpecJoin::finish(const Intern& intern, const Emit& emit) {
    settle(intern, emit);
    for (const auto& l : located_) emit(l.kernel);
    for (const auto& [correlation, kernels] : pending_)
        for (const auto& kernel : kernels) emit(kernel);
    unmatched_ += static_cast<std::int64_t>(located_.size() + pending_count_);
    located_.clear();
    pending_.clear();
    pending_count_ = 0;
    launches_.clear();
    windows_.clear();
}

}  // namespace tokenscope::capture::cupti
