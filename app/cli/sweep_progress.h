#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "terminal_progress.h"

namespace tokenscope::cli {

// Progress of a sweep, one tick per run (warm-ups included): a line redrawn on
// stderr with the point, the repeat and an ETA from the mean time per run so far,
// or one JSON line per run on stdout for a parent process, or nothing.
class SweepProgress {
  public:
    SweepProgress(TerminalProgress::Mode mode, std::int64_t total_runs);
    ~SweepProgress();

    // Called before each run starts.
    void start(std::int64_t point, std::int64_t points, std::int64_t repeat, bool warmup);
    // Called after each run; prints the JSON line or redraws the bar.
    void done(std::int64_t run_id);
    void finish();

  private:
    void draw();

    TerminalProgress::Mode mode_;
    std::int64_t total_ = 0;
    std::int64_t done_ = 0;
    std::int64_t point_ = 0, points_ = 0, repeat_ = 0;
    bool warmup_ = false;
    std::chrono::steady_clock::time_point started_;
    bool drew_ = false;
};

}  // namespace tokenscope::cli
