#pragma once

#include <QString>

#include "open_run.h"
#include "trace/run_label.h"

namespace tokenscope::ui {

// A run's name for plot titles, with " (model)" for model runs unless the name
// already says so: a model is never shown as a measurement.
class RunTitle {
  public:
    static QString of(const OpenRun& run) {
        if (!run.valid()) return {};
        return QString::fromStdString(trace::run_label(run.data->info, {}));
    }
};

}  // namespace tokenscope::ui
