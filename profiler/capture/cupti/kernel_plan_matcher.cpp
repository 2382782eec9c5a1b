#include "kernel_plan_matcher.h"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>

#include "trace/kernel_signature.h"

namespace tokenscope::capture::cupti {
namespace {

constexpr std::size_t kMaxShortName = 96;

// The part of a helper's name after the entry's: the CUDA name without return type,
// template arguments and parameters, cut to a length a table can show.
std::string helper_suffix(std::string_view cuda_name) {
    std::string out = trace::qualified_kernel_name(cuda_name);
    if (out.size() > kMaxShortName) out.resize(kMaxShortName);
    return out;
}

std::int64_t duration(const trace::Activity& a) {
    return std::max<std::int64_t>(0, a.end_ns - a.start_ns);
}

}  // namespace

void KernelPlanMatcher::add_iteration(const kernels::IterationPlan& plan, std::int64_t begin_ns,
                                      std::int64_t end_ns, const Launches& launches) {
    std::vector<Spec> specs;
    specs.reserve(plan.kernels.size());
    for (std::size_t i = 0; i < plan.kernels.size(); ++i) {
        const auto& k = plan.kernels[i];
        const std::int32_t n = i < launches.kernels.size() ? launches.kernels[i] : 1;
        specs.push_back({std::string(k.name()), k.flops, k.bytes(), n});
    }
    add_window(begin_ns, end_ns, std::move(specs), launches.first_tag);
}

void KernelPlanMatcher::add_window(std::int64_t begin_ns, std::int64_t end_ns,
                                   std::vector<Spec> specs, std::uint64_t first_tag) {
    std::size_t expected = 0;
    for (const auto& s : specs) expected += static_cast<std::size_t>(std::max(s.kernels, 0));
    std::lock_guard lock(mutex_);
    incoming_.push_back({begin_ns, end_ns, std::move(specs), first_tag, expected});
}

// One call may launch many kernels (a cudaGraphLaunch), whose records may come before
// or after the call's: the call stays known until a window settles past it.
void KernelPlanMatcher::add_launch(std::uint32_t correlation, std::int64_t start_ns) {
    launches_[correlation] = start_ns;
    if (auto it = pending_.find(correlation); it != pending_.end()) {
        for (auto& k : it->second) located_.push_back({start_ns, k});
        pending_count_ -= it->second.size();
        pending_.erase(it);
    }
}

// Tagged kernels are moved to their tag in tag_waiting(), once per settle.
void KernelPlanMatcher::add_tag(std::uint32_t correlation, std::uint64_t tag) {
    if (tag != 0) tags_[correlation] = tag;
}

void KernelPlanMatcher::add_kernel(const trace::Activity& kernel) {
    if (auto it = tags_.find(kernel.correlation); it != tags_.end()) {
        tagged_[it->second].push_back(kernel);
        ++tagged_count_;
        return;
    }
    if (auto it = launches_.find(kernel.correlation); it != launches_.end()) {
        located_.push_back({it->second, kernel});
        return;
    }
    pending_[kernel.correlation].push_back(kernel);
    ++pending_count_;
}

std::size_t KernelPlanMatcher::waiting() const {
    return pending_count_ + located_.size() + tagged_count_;
}

void KernelPlanMatcher::take_windows() {
    std::lock_guard lock(mutex_);
    for (auto& w : incoming_) {
        horizon_ns_ = std::max(horizon_ns_, w.end_ns);
        if (w.first_tag != 0) tag_horizon_ = std::max(tag_horizon_, w.first_tag + w.specs.size());
        windows_.push_back(std::move(w));
    }
    incoming_.clear();
}

// Kernels whose tag came after them move from located_ and pending_ to tagged_.
void KernelPlanMatcher::tag_waiting() {
    if (tags_.empty()) return;
    std::vector<Located> rest;
    for (auto& l : located_) {
        if (auto it = tags_.find(l.kernel.correlation); it != tags_.end()) {
            tagged_[it->second].push_back(std::move(l.kernel));
            ++tagged_count_;
        } else {
            rest.push_back(std::move(l));
        }
    }
    located_ = std::move(rest);
    for (auto it = pending_.begin(); it != pending_.end();) {
        auto tag = tags_.find(it->first);
        if (tag == tags_.end()) {
            ++it;
            continue;
        }
        auto& into = tagged_[tag->second];
        into.insert(into.end(), it->second.begin(), it->second.end());
        tagged_count_ += it->second.size();
        pending_count_ -= it->second.size();
        it = pending_.erase(it);
    }
}

void KernelPlanMatcher::emit_entry(const Spec& spec, std::vector<trace::Activity>& kernels,
                                   const Sink& sink) {
    if (kernels.empty()) return;
    std::sort(kernels.begin(), kernels.end(),
              [](const trace::Activity& a, const trace::Activity& b) {
                  return std::tie(a.start_ns, a.correlation) < std::tie(b.start_ns, b.correlation);
              });
    std::size_t main = 0;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        total += duration(kernels[i]);
        if (duration(kernels[i]) > duration(kernels[main])) main = i;
    }
    // Shares by duration; the longest kernel takes what rounding leaves, so the sums are exact.
    std::uint64_t bytes_left = spec.bytes;
    double flops_left = static_cast<double>(spec.flops);
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        trace::Activity a = kernels[i];
        std::string name = spec.name;
        if (i != main) {
            const long double share =
                total > 0 ? static_cast<long double>(duration(a)) / static_cast<long double>(total)
                          : 0.0L;
            a.bytes = static_cast<std::uint64_t>(
                std::floor(static_cast<long double>(spec.bytes) * share));
            const double flops =
                std::floor(static_cast<double>(spec.flops) * static_cast<double>(share));
            a.flops = static_cast<float>(flops);
            bytes_left -= std::min(bytes_left, a.bytes);
            flops_left = std::max(0.0, flops_left - flops);
            const std::string_view cuda = sink.text ? sink.text(a.name) : std::string_view();
            name += "/" + (cuda.empty() ? std::string("helper") : helper_suffix(cuda));
            ++helpers_;
        }
        cuda_names_.try_emplace(name, a.name);
        a.name = sink.intern(name);
        kernels[i] = a;
    }
    kernels[main].bytes = bytes_left;
    kernels[main].flops = static_cast<float>(flops_left);
    for (const auto& a : kernels) sink.emit(a);
    matched_ += static_cast<std::int64_t>(kernels.size());
}

void KernelPlanMatcher::forget_tags(const Window& w) {
    const std::uint64_t end = w.first_tag + w.specs.size();
    std::erase_if(tags_,
                  [&](const auto& kv) { return kv.second >= w.first_tag && kv.second < end; });
}

bool KernelPlanMatcher::settle_tagged(const Window& w, bool force, const Sink& sink) {
    if (!force) {
        for (std::size_t i = 0; i < w.specs.size(); ++i) {
            auto it = tagged_.find(w.first_tag + i);
            const std::size_t have = it == tagged_.end() ? 0 : it->second.size();
            if (have < static_cast<std::size_t>(std::max(w.specs[i].kernels, 0))) return false;
        }
    }
    for (std::size_t i = 0; i < w.specs.size(); ++i) {
        auto it = tagged_.find(w.first_tag + i);
        if (it == tagged_.end()) continue;
        tagged_count_ -= it->second.size();
        emit_entry(w.specs[i], it->second, sink);
        tagged_.erase(it);
    }
    forget_tags(w);
    std::erase_if(launches_, [&](const auto& kv) { return kv.second <= w.end_ns; });
    return true;
}

bool KernelPlanMatcher::settle_counted(const Window& w, const Sink& sink) {
    auto inside = [&](const Located& l) {
        return l.launch_ns >= w.begin_ns && l.launch_ns <= w.end_ns;
    };
    const auto count =
        static_cast<std::size_t>(std::count_if(located_.begin(), located_.end(), inside));
    if (count != w.expected) return false;
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
    std::size_t next = 0;
    for (const Spec& spec : w.specs) {
        std::vector<trace::Activity> group;
        for (std::int32_t j = 0; j < spec.kernels; ++j) group.push_back(mine[next++].kernel);
        emit_entry(spec, group, sink);
    }
    // Launch calls left in a settled window have no kernel of the workload (a driver
    // call nested in a runtime launch): nothing will claim them.
    std::erase_if(launches_, [&](const auto& kv) { return kv.second <= w.end_ns; });
    return true;
}

void KernelPlanMatcher::emit_unclaimed(const Emit& emit) {
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
    // Tags below the latest window's whose window has settled: kernels beyond the
    // counts the runner gave, arriving late.
    for (auto it = tagged_.begin(); it != tagged_.end();) {
        const std::uint64_t tag = it->first;
        const bool open =
            tag >= tag_horizon_ ||
            std::any_of(windows_.begin(), windows_.end(), [&](const Window& w) {
                return w.first_tag != 0 && tag >= w.first_tag && tag < w.first_tag + w.specs.size();
            });
        if (open) {
            ++it;
            continue;
        }
        for (const auto& k : it->second) emit(k);
        unmatched_ += static_cast<std::int64_t>(it->second.size());
        tagged_count_ -= it->second.size();
        it = tagged_.erase(it);
    }
}

void KernelPlanMatcher::settle(const Intern& intern, const Emit& emit, const Text& text) {
    take_windows();
    tag_waiting();
    const Sink sink{intern, emit, text};
    std::erase_if(windows_, [&](const Window& w) {
        return w.first_tag != 0 ? settle_tagged(w, false, sink) : settle_counted(w, sink);
    });
    emit_unclaimed(emit);
}

void KernelPlanMatcher::finish(const Intern& intern, const Emit& emit, const Text& text) {
    settle(intern, emit, text);
    const Sink sink{intern, emit, text};
    std::erase_if(windows_, [&](const Window& w) {
        return w.first_tag != 0 && settle_tagged(w, true, sink);
    });
    std::size_t left = located_.size() + pending_count_ + tagged_count_;
    for (const auto& l : located_) emit(l.kernel);
    for (const auto& [correlation, kernels] : pending_)
        for (const auto& kernel : kernels) emit(kernel);
    for (const auto& [tag, kernels] : tagged_)
        for (const auto& kernel : kernels) emit(kernel);
    unmatched_ += static_cast<std::int64_t>(left);
    located_.clear();
    pending_.clear();
    tagged_.clear();
    pending_count_ = tagged_count_ = 0;
    launches_.clear();
    tags_.clear();
    windows_.clear();
}

}  // namespace tokenscope::capture::cupti
