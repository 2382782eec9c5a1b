#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <memory>

#include "trace/run_data.h"
#include "ui/timeline/timeline_index.h"

namespace tokenscope::ui {

// One run the window holds open: where it came from, the data, and the index
// the timeline paints from. Shared and immutable, so background jobs may read it.
struct OpenRun {
    QString path;
    std::shared_ptr<const trace::RunData> data;
    std::shared_ptr<const TimelineIndex> index;
    // The step pattern (a regex) the file was opened with; empty: the iteration presets.
    QString step_pattern{};
    // The run's position among its .tokenscope file's runs (StoreReader::run_ids), where
    // the timeline may read its stored summaries; -1 for a run not read as it is stored
    // (joined, merged, in memory). A foreign file's runs get theirs too and simply have
    // no summaries.
    int file_run = -1;

    bool valid() const { return data != nullptr; }
    QString name() const { return valid() ? QString::fromStdString(data->info.name) : QString(); }
};

}  // namespace tokenscope::ui

Q_DECLARE_METATYPE(tokenscope::ui::OpenRun)
