#pragma once

#include <QString>
#include <cstddef>

#include "trace/kernel_launch.h"
#include "ui/plots/time_format.h"
#include "ui/shared/open_run.h"

namespace tokenscope::ui {

// What the timeline says of one activity on hover (rich text): name, kind and lane,
// start (from the run's first activity) and duration in the unit, bytes, FLOPs,
// correlation id, a kernel's launch configuration and CUDA graph node, and how many
// GPU activities an API call launched.
class ActivityTooltip {
  public:
    // Activity `activity` of `index`'s run (the whole run's, or the stretch an
    // ActivityWindow read), its start counted from `origin_ns`; empty for one it does not have.
    static QString html(const TimelineIndex& index, std::int64_t origin_ns, std::size_t activity,
                        plots::TimeUnit unit);
    // A kernel's launch configuration, as the hover shows it:
    // "grid (4, 106, 1) · block (128, 1, 1) · 30 regs · 2048 B shared"
    static QString launchText(const trace::KernelLaunch& launch);

  private:
    static QString graphText(const TimelineIndex& index, std::size_t activity);
};

}  // namespace tokenscope::ui
