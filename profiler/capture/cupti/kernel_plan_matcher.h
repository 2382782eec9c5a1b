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

// Names traced kernels after the workload's plan and gives them its FLOPs and bytes.
// The CUDA runner launches plan.kernels[i] as the i-th entry of an iteration; an entry
// may launch more than one kernel (a cuBLASLt call adds split-K reductions and
// epilogues). Each iteration is a window (host times of the runner's hooks) with,
// per entry, how many kernels it launches. A kernel finds its entry in one of two ways:
//
// - By correlation (eager launches): the runner tags the CUDA calls of entry i with
//   the CUPTI external correlation id first_tag + i, so a kernel's launch call names
//   its entry whatever the launch or record order. The window settles once every
//   entry holds its kernels, or at finish() with what it holds.
// - By position in a graph launch (untagged windows): every kernel of a cudaGraphLaunch
//   shares the launch's correlation id, and the graph, captured from one stream, runs
//   its kernels in capture order. The window settles once exactly the planned number of
//   kernels was launched inside it; they are taken by (launch call start, correlation,
//   kernel start) and cut into entries by the per-entry counts. A window whose count
//   differs matches nothing: its kernels keep their CUDA names and count as unmatched.
//
// An entry's longest kernel takes the entry's name; the others are its helpers, named
// "entry/kernel" ("qkv_proj/splitKreduce_kernel"). The entry's FLOPs and bytes are
// shared among its kernels in proportion to their durations, so they sum to the plan's
// and every kernel of the entry shows the entry's arithmetic intensity and bandwidth.
//
// add_iteration()/add_window() are for the thread that drives the workload; everything
// else runs on the tracer's writer thread (the decoder).
class KernelPlanMatcher {
  public:
    struct Spec {
        std::string name;
        std::uint64_t flops = 0;
        std::uint64_t bytes = 0;
        std::int32_t kernels = 1;  // kernels the entry launches
    };
    // How the runner launched one iteration.
    struct Launches {
        // External correlation id of entry 0 when each entry's CUDA calls were tagged
        // (entry i: first_tag + i); 0 when untagged (a graph launch).
        std::uint64_t first_tag = 0;
        std::vector<std::int32_t> kernels;  // per entry; empty: one each
    };
    using Intern = std::function<std::uint32_t(std::string_view)>;
    using Emit = std::function<void(const trace::Activity&)>;
    // The CUDA name of a kernel's name id (for helper names); empty when unknown.
    using Text = std::function<std::string_view(std::uint32_t)>;

    void add_iteration(const kernels::IterationPlan& plan, std::int64_t begin_ns,
                       std::int64_t end_ns, const Launches& launches);
    // One kernel per entry, untagged.
    void add_iteration(const kernels::IterationPlan& plan, std::int64_t begin_ns,
                       std::int64_t end_ns) {
        add_iteration(plan, begin_ns, end_ns, Launches{});
    }
    void add_window(std::int64_t begin_ns, std::int64_t end_ns, std::vector<Spec> specs,
                    std::uint64_t first_tag = 0);

    // A kernel launch API call (host time of its start), an external correlation record
    // (the tag of the calls of one entry) and a kernel activity (its host-mapped times
    // and CUPTI name already set); kernels wait here until their window settles.
    void add_launch(std::uint32_t correlation, std::int64_t start_ns);
    void add_tag(std::uint32_t correlation, std::uint64_t tag);
    void add_kernel(const trace::Activity& kernel);
    // Emits what is settled: matched kernels with their entry's name, FLOPs and bytes,
    // and kernels that no window can claim any more, unchanged.
    void settle(const Intern& intern, const Emit& emit, const Text& text = {});
    // Settles what it can, matches each tagged window with the kernels it holds, then
    // emits every kernel still waiting, unchanged.
    void finish(const Intern& intern, const Emit& emit, const Text& text = {});

    std::int64_t matched() const { return matched_; }  // named after an entry, helpers included
    std::int64_t helpers() const { return helpers_; }  // of those, not an entry's longest kernel
    std::int64_t unmatched() const { return unmatched_; }
    std::size_t waiting() const;
    // Entry or helper name -> the CUDA (demangled) name id of the first kernel matched to it.
    const std::map<std::string, std::uint32_t>& cuda_names() const { return cuda_names_; }

  private:
    struct Window {
        std::int64_t begin_ns = 0;
        std::int64_t end_ns = 0;
        std::vector<Spec> specs;
        std::uint64_t first_tag = 0;
        std::size_t expected = 0;  // kernels in all
    };
    struct Located {
        std::int64_t launch_ns = 0;
        trace::Activity kernel;
    };
    struct Sink {
        const Intern& intern;
        const Emit& emit;
        const Text& text;
    };
    void take_windows();
    void tag_waiting();
    bool settle_tagged(const Window& w, bool force, const Sink& sink);
    bool settle_counted(const Window& w, const Sink& sink);
    void emit_entry(const Spec& spec, std::vector<trace::Activity>& kernels, const Sink& sink);
    void forget_tags(const Window& w);
    void emit_unclaimed(const Emit& emit);

    std::mutex mutex_;
    std::vector<Window> incoming_;   // from the driving thread
    std::vector<Window> windows_;    // unsettled, in launch order
    std::int64_t horizon_ns_ = 0;    // end of the latest window seen
    std::uint64_t tag_horizon_ = 0;  // one past the last tag of the windows seen
    std::unordered_map<std::uint32_t, std::int64_t> launches_;
    std::unordered_map<std::uint32_t, std::uint64_t> tags_;  // correlation -> entry tag
    // No launch or tag seen yet, by correlation: a graph launch's kernels share one.
    std::unordered_map<std::uint32_t, std::vector<trace::Activity>> pending_;
    std::size_t pending_count_ = 0;
    std::vector<Located> located_;  // launch known, tag not (yet)
    std::unordered_map<std::uint64_t, std::vector<trace::Activity>> tagged_;  // by tag
    std::size_t tagged_count_ = 0;
    std::map<std::string, std::uint32_t> cuda_names_;
    std::int64_t matched_ = 0;
    std::int64_t helpers_ = 0;
    std::int64_t unmatched_ = 0;
};

}  // namespace tokenscope::capture::cupti
