#pragma once

#include <cstdint>
#include <vector>

#include "capture/jitter_model.h"
#include "capture/kernel_name_cache.h"
#include "capture/model/model_workload.h"
#include "kernels/cost_model.h"
#include "kernels/decode_planner.h"
#include "store/run_writer.h"
#include "trace/progress.h"

namespace tokenscope::capture {

// Plays a decode run on a virtual clock and writes what a tracer would have seen.
// One host thread issues, per iteration: the token-id upload, every kernel
// launch, the sampled-id download and a stream synchronize; the GPU runs kernels
// in order on one compute stream and copies on one copy engine. A kernel starts
// no earlier than its launch call's start plus the launch latency, its stream
// predecessor's end and (the first of an iteration) the upload's end. A token is
// emitted when the synchronize returns; all requests of the batch emit together.
class ModelSimulator {
  public:
    ModelSimulator(const ModelRunSpec& spec, store::RunWriter& writer);

    // Writes lanes, activities, steps, requests and the model diagnostic. Reports
    // iterations done / total; throws trace::Cancelled when progress returns false.
    void run(const trace::ProgressFn& progress);

    // The model's clock starts here rather than at 0, so no event sits at a time
    // that readers might take for "unset".
    static constexpr std::int64_t kRunStartNs = 1'000'000;

  private:
    struct IterationTimes {
        std::int64_t start_ns = 0;
        std::int64_t emission_ns = 0;
    };
    void add_lanes();
    IterationTimes simulate(const kernels::IterationPlan& plan);
    std::int64_t copy(trace::CopyKind kind, std::uint64_t bytes, std::int64_t ready_ns);
    void launch(const kernels::KernelSpec& kernel, std::int64_t ready_ns);
    std::int64_t synchronize(std::int64_t done_ns);
    void add_steps(const kernels::IterationPlan& plan, const IterationTimes& t);
    void add_requests();

    ModelRunSpec spec_;
    store::RunWriter& writer_;
    kernels::DecodePlanner planner_;
    kernels::CostModel cost_;
    JitterModel jitter_;

    std::uint16_t host_lane_ = 0, compute_lane_ = 0, copy_lane_ = 0, step_lane_ = 0;
    std::uint32_t launch_name_ = 0, memcpy_name_ = 0, sync_name_ = 0;
    std::uint32_t h2d_name_ = 0, d2h_name_ = 0;
    KernelNameCache kernel_name_;

    std::int64_t host_ns_ = kRunStartNs;  // where the host thread is
    std::int64_t compute_free_ns_ = 0;    // end of the last kernel
    std::int64_t copy_free_ns_ = 0;       // end of the last copy
    std::uint32_t correlation_ = 0;
    std::int64_t last_emission_ns_ = 0;
    std::int64_t first_token_ns_ = 0;
    std::int32_t tokens_done_ = 0;  // per request
};

}  // namespace tokenscope::capture
