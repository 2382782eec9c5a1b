#pragma once

#include <cstdint>

#include "trace/run_data.h"

namespace tokenscope::exporter {

// Ground truth for the client/server join (issue 12 item 4). Our own decode runs know
// which iteration emitted each token: every token of a batch comes out at the instant
// its iteration ends. These turn such a run into the two files the join reads, an
// engine's trace and a load generator's per-request results.

// The run's token steps (requests' tokens, not engine iterations); false for imported
// engine traces, which have none to export.
bool has_token_steps(const trace::RunData& run);

// What to add to the run's times to put them on Unix time: its first instant (arrival,
// step or activity) becomes the run's creation time, or 2026-01-01 where the run has
// none. Engine traces from PyTorch's profiler carry Unix-time timestamps too.
std::int64_t unix_time_shift(const trace::RunData& run);

// The engine's side of a decode run, `shift` added to every time: its lanes, activities,
// counters and launches, and one iteration range per instant at which tokens were
// emitted, on a host lane of its own ("engine iterations"), named as vLLM names them
// (execute_context_N(T)_generation_N(T): prefill requests and prompt tokens, decode
// requests and tokens emitted) so the importers' iteration presets find them. Each
// range runs from the previous emission to its own. No steps: the reader derives them.
trace::RunData server_trace_view(const trace::RunData& run, std::int64_t shift);

}  // namespace tokenscope::exporter
