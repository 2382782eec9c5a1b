#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "capture/kernel_name_cache.h"
#include "capture/model/model_workload.h"
#include "capture/serving/arrival_process.h"
#include "capture/serving/batch_iteration_cost.h"
#include "capture/serving/serving_config.h"
#include "capture/serving/serving_scheduler.h"
#include "store/run_writer.h"
#include "trace/progress.h"

namespace tokenscope::capture {

// The serving model (docs/sweeps.md, Serving model): the cost model driven by a continuous-
// batching scheduler on a virtual clock. Requests arrive (open or closed loop), wait
// in their class's queue, are admitted by the scheduler, and every iteration lasts
// the cost model of its ragged batch, stretched by a seeded jitter, plus a fixed host
// overhead. TTFT includes the queue. Writes requests, token steps (unless
// token_steps is off), iteration ranges, counters (requests in the system, running
// sequences, class shares) and, unless in summary mode, every kernel. The run is a
// model, labelled so.
class ServingSimulator {
  public:
    ServingSimulator(const ModelRunSpec& spec, const ServingConfig& config,
                     store::RunWriter& writer);

    // Progress is simulated milliseconds against the arrival window; throws
    // trace::Cancelled when it returns false, std::invalid_argument for a bad config.
    void run(const trace::ProgressFn& progress);

    static constexpr std::int64_t kRunStartNs = 1'000'000;

  private:
    void add_lanes();
    void pull_arrivals(std::int64_t now);
    void add_request(std::int64_t arrival);
    std::int64_t simulate_iteration(const std::vector<ScheduledSlice>& batch, std::int64_t now);
    void add_step(std::int64_t request, std::int32_t index, trace::Phase phase, std::int64_t start,
                  std::int64_t end);
    void emit(const std::vector<ScheduledSlice>& batch, std::int64_t start, std::int64_t end);
    void write_kernels(const BatchIteration& it, double stretch, std::int64_t start);
    void rescale_shares(std::int64_t now);
    void sample_counters(std::int64_t now);
    void write_requests();

    ModelRunSpec spec_;
    ServingConfig config_;
    store::RunWriter& writer_;
    BatchIterationCost cost_;
    ServingScheduler scheduler_;
    ArrivalProcess arrivals_;
    kernels::Rng rng_;
    KernelNameCache kernel_name_;

    std::vector<ServingRequest> requests_;
    std::int64_t next_arrival_ns_ = 0;
    std::int64_t end_of_arrivals_ns_ = 0;
    std::int64_t in_system_ = 0;
    std::int64_t next_rescale_ns_ = 0;
    std::vector<std::deque<std::pair<std::int64_t, std::int64_t>>> recent_ttft_;  // per class
    std::uint16_t compute_lane_ = 0, step_lane_ = 0, system_lane_ = 0, running_lane_ = 0;
    std::uint16_t share_lane0_ = 0;
    std::uint32_t iteration_name_ = 0, prefill_name_ = 0;
    std::int32_t iteration_ = 0;
};

// Runs the serving model into `writer` and finishes it (abandons on failure).
void run_serving_model(const CaptureConfig& capture, const ServingConfig& config,
                       store::RunWriter& writer, const trace::ProgressFn& progress);

}  // namespace tokenscope::capture
