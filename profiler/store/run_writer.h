#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>

#include "trace/activity.h"
#include "trace/counter_sample.h"
#include "trace/diagnostic.h"
#include "trace/graph_table.h"
#include "trace/kernel_launch.h"
#include "trace/lane.h"
#include "trace/request.h"
#include "trace/run_data.h"
#include "trace/run_info.h"
#include "trace/step.h"

namespace tokenscope::store {

struct WriterOptions {
    // A commit happens at least this often while records arrive, so a killed
    // capture loses at most its last batch.
    std::chrono::milliseconds commit_interval{100};
    // Finest timeline summary bin, 2^summary_width_log2 ns (10..40); 0 = chosen per lane
    // from its first activities' density (about 32 a bin).
    int summary_width_log2 = 0;
};

// Streams one run into a .tokenscope file. Not thread-safe: one writer thread owns it.
class RunWriter {
  public:
    virtual ~RunWriter() = default;

    virtual std::uint16_t add_lane(const trace::Lane& lane) = 0;
    virtual std::uint32_t intern(std::string_view text) = 0;
    virtual void add_activity(const trace::Activity& activity) = 0;
    virtual void add_step(const trace::Step& step) = 0;
    virtual void add_request(const trace::Request& request) = 0;
    virtual void add_counter(const trace::CounterSample& sample) = 0;
    virtual void add_diagnostic(const trace::Diagnostic& diagnostic) = 0;
    // Launch facts of a kernel, keyed by its correlation id; a repeated id keeps the first.
    virtual void add_launch(const trace::KernelLaunch& launch) = 0;
    // The CUDA graph node a GPU activity ran as, keyed by its lane and start.
    virtual void add_graph_activity(const trace::GraphActivity& graph) = 0;
    // Rewrites the run's header (e.g. GPU facts learnt during capture).
    virtual void update_info(const trace::RunInfo& info) = 0;

    // Commits if the commit interval has passed; idle writers call this on a timer.
    virtual void poll() = 0;
    // Commits everything buffered now.
    virtual void flush() = 0;
    // Flushes, marks the run complete and closes the transaction.
    virtual void finish() = 0;
    // Drops the run and everything written for it (cancelled capture or failed import).
    virtual void abandon() = 0;

    virtual std::int64_t run_id() const = 0;
    virtual std::int64_t committed_batches() const = 0;
    virtual std::int64_t activities_written() const = 0;
};

}  // namespace tokenscope::store
