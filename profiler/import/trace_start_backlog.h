#pragma once

#include "trace/run_data.h"

namespace tokenscope::import {

// A profiler started while the GPU still ran work launched before it: the first traced
// operation of a stream then starts long after its launch call with nothing traced ahead
// of it on that stream. In a one-iteration trace (vLLM's full-graph decode fixture: the
// first copy launched at 0.5 ms runs at 8.4 ms) that wait reads as GPU idle inside the
// iteration. Adds a "trace_start_backlog" diagnostic naming the longest such wait when
// one exceeds `threshold_ns`, so the user knows the idle time is untraced work, not idle.
void note_trace_start_backlog(trace::RunData& run, std::int64_t threshold_ns = 1'000'000);

}  // namespace tokenscope::import
