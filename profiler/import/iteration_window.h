#pragma once

#include <vector>

#include "trace/run_data.h"

namespace tokenscope::import {

// An engine iteration spans its GPU work (docs/engine-traces.md, Iteration windows): a
// marker of a few milliseconds launches a CUDA graph whose kernels run for tens of
// milliseconds after it ends. Each step i of `steps` (framed by a marker, marker_end_ns
// set) whose marker ran on the host lane host_lane[i] is extended to the end of the last
// GPU operation (kernel, copy, memset) launched from an API call on that lane inside the
// marker, joined by correlation id (every kernel of a graph launch shares its call's).
// A step never shrinks. Adds an "iteration_window" diagnostic saying how many steps
// grew and by how much at most. Returns the number of steps extended.
std::size_t extend_to_gpu_work(trace::RunData& run, std::vector<trace::Step>& steps,
                               const std::vector<int>& host_lane);

}  // namespace tokenscope::import
