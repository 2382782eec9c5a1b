#pragma once

#include <string>
#include <vector>

#include "terminal_progress.h"
#include "trace/run_data.h"

namespace tokenscope::cli {

struct LoadedRun {
    std::string path;
    trace::RunData data;
};

// Opens every file (a .tokenscope file gives all its runs, a foreign trace one run),
// with a progress bar. Errors propagate as StoreError / ImportError.
std::vector<LoadedRun> load_runs(const std::vector<std::string>& paths,
                                 TerminalProgress::Mode progress,
                                 const std::string& step_pattern = {});

// "--run" selects one run of a multi-run file by position (1-based) or by name.
std::vector<LoadedRun> select_runs(std::vector<LoadedRun> runs, const std::string& which);

// A run's display name, marked "(model)" when it is a cost-model run.
std::string display_name(const trace::RunData& run);

}  // namespace tokenscope::cli
