#pragma once

#include <QString>

#include "trace/kernel_launch.h"

namespace tokenscope::ui {

// Text for a kernel's launch configuration, as the timeline hover shows it.
class LaunchFormat {
  public:
    // "grid (4, 106, 1) · block (128, 1, 1) · 30 regs · 2048 B shared"
    static QString text(const trace::KernelLaunch& launch);
};

}  // namespace tokenscope::ui
