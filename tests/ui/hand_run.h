#pragma once

// The hand-made run of tests/support/hand_made_run.h, opened as the GUI opens a file.
#include <QString>
#include <memory>

#include "support/hand_made_run.h"
#include "trace/run_data.h"
#include "ui/shared/open_run.h"
#include "ui/window/run_loader.h"

namespace tokenscope::test {

inline ui::OpenRun open_run(trace::RunData run, const QString& path = QStringLiteral("memory")) {
    ui::RunLoader::normalize(run);
    auto data = std::make_shared<const trace::RunData>(std::move(run));
    return ui::OpenRun{path, data, std::make_shared<const ui::TimelineIndex>(*data)};
}

}  // namespace tokenscope::test
