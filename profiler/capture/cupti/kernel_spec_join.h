#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kernels/iteration_plan.h"
#include "trace/activity.h"

namespace tokenscope::capture::cupti {

// Names traced kernels after the workload spec and gives them its FLOPs and bytes.
// The CUDA runner launches plan.kernels[i] as the i-th kernel of an iteration, so a
// kernel's spec follows from which iteration window (host times of the runner's
// hooks) its launch API call started in and its rank there by launch time. A window
// is settled only once exactly plan.kernels.size() located kernels fall in it; a
// kernel never settled keeps its CUDA name and counts as unmatched.
//
// add_iteration() is for the thread that drives the workload; everything else runs
// on the tracer's writer thread (the decoder).
class KernelSpecJoin {
  public:
    struct Spec {
        std::string name;
        std::uint64_t flops = 0;
        std::uint64_t bytes = 0;
    };
    using Intern = std::function<std::uint32_t(std::string_view)>;
    using Emit = std::function<void(const trace::Activity&)>;

    void add_iteration(const kernels::IterationPlan& plan, std::int64_t begin_ns,
                       std::int64_t end_ns);
    void add_window(std::int64_t begin_ns, std::int64_t end_ns, std::vector<Spec> specs);

    // A kernel launch API call (host time of its start) and a kernel activity (its
    // host-mapped times and CUPTI name already set); kernels wait here until settled.
    void add_launch(std::uint32_t correlation, std::int64_t start_ns);
    void add_kernel(const trace::Activity& kernel);
    // Emits what is settled: joined kernels with the spec's name, FLOPs and bytes,
    // and kernels that no window can claim any more, unchanged.
    void settle(const Intern& intern, const Emit& emit);
    // Settles what it can, then emits every kernel still waiting, unchanged.
    void finish(const Intern& intern, const Emit& emit);

    std::int64_t joined() const { return joined_; }
    std::int64_t unmatched() const { return unmatched_; }
    std::size_t waiting() const { return pending_count_ + located_.size(); }
    // Spec name -> the CUDA (demangled) name id of the first kernel joined to it.
    const std::map<std::string, std::uint32_t>& cuda_names() const { return cuda_names_; }

  private:
    struct Window {
        std::int64_t begin_ns = 0;
        std::int64_t end_ns = 0;
        std::vector<Spec> specs;
    };
    struct Located {
        std::int64_t launch_ns = 0;
        trace::Activity kernel;
    };
    void take_windows();
    bool settle_window(const Window& w, const Intern& intern, const Emit& emit);
    void emit_unclaimed(const Emit& emit);

    std::mutex mutex_;
    std::vector<Window> incoming_;  // from the driving thread
    std::vector<Window> windows_;   // unsettled, in launch order
    std::int64_t horizon_ns_ = 0;   // end of the latest window seen
    std::unordered_map<std::uint32_t, std::int64_t> launches_;
    // No launch seen yet, by correlation: a graph launch's kernels share one.
    std::unordered_map<std::uint32_t, std::vector<trace::Activity>> pending_;
    std::size_t pending_count_ = 0;
    std::vector<Located> located_;
    std::map<std::string, std::uint32_t> cuda_names_;
    std::int64_t joined_ = 0;
    std::int64_t unmatched_ = 0;
};

}  // namespace tokenscope::capture::cupti
