#pragma once

#include <QString>
#include <cstddef>

#include "ui/plots/time_format.h"
#include "ui/shared/open_run.h"

namespace tokenscope::ui {

// What the timeline says of one activity on hover (rich text): name, kind and lane,
// start (from the run's first activity) and duration in the unit, bytes, FLOPs,
// correlation id, a kernel's launch configuration and CUDA graph node, and how many
// GPU activities an API call launched.
class ActivityTooltip {
  public:
    // Empty for an activity the run does not have.
    static QString html(const OpenRun& run, std::size_t activity, plots::TimeUnit unit);

  private:
    static QString graphText(const OpenRun& run, std::size_t activity);
};

}  // namespace tokenscope::ui
