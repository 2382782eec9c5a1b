#pragma once

#include <string>
#include <string_view>

#include "run_info.h"

namespace tokenscope::trace {

// The one rule for how a run is named wherever a person reads it (CLI tables,
// plot titles, the run list): its name, or `fallback` when it has none, with
// " (model)" appended to a cost-model run unless the name already says so.
// A model is never shown as a measurement.
std::string run_label(const RunInfo& info, std::string_view fallback = "(unnamed)");

}  // namespace tokenscope::trace
