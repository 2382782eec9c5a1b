#pragma once

#include "capture/model/model_workload.h"
#include "trace/run_info.h"

namespace tokenscope::capture::cupti {

// The header of a measured cuda run: source Cuda, host clock, this host, the GPU as
// the runtime reports it (name, SMs) with peak figures from the matching preset,
// driver and runtime versions, and the workload as JSON.
trace::RunInfo cuda_run_info(const ModelRunSpec& spec, int device);

}  // namespace tokenscope::capture::cupti
