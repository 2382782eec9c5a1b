#pragma once

#include <QString>

#include "open_run.h"

namespace tokenscope::ui {

// A run's name for plot titles, with " (model)" for model runs unless the name
// already says so: a model is never shown as a measurement.
class RunTitle {
  public:
    static QString of(const OpenRun& run) {
        if (!run.valid()) return {};
        const QString name = run.name();
        const QString mark = QStringLiteral("(model)");
        return run.data->info.is_model() && !name.contains(mark) ? name + QLatin1Char(' ') + mark
                                                                 : name;
    }
};

}  // namespace tokenscope::ui
