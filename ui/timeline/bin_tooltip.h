#pragma once

#include <QString>
#include <cstdint>

#include "store/timeline_summary.h"
#include "trace/run_data.h"
#include "ui/plots/time_format.h"

namespace tokenscope::ui {

// What the timeline says on hover over a lane painted from its stored summary bins (a run
// whose activities stayed in its file, zoomed out past them): how many activities start
// in the bin under the pointer, how busy it is, the name with the most time and the
// longest activity, from the file's summaries (DESIGN.md section 17), and that zooming in
// shows each activity.
class BinTooltip {
  public:
    // Bin `bin` of a level of bins 2^bin_log2 ns wide on a lane of `run`; times counted
    // from `origin_ns`.
    static QString html(const trace::RunData& run, const store::SummaryBin& bin, int bin_log2,
                        std::int64_t origin_ns, plots::TimeUnit unit);
};

}  // namespace tokenscope::ui
