#pragma once

#include <chrono>
#include <string>

#include "trace/progress.h"

namespace tokenscope::cli {

// Progress for long work: a bar redrawn on stderr when it is a terminal, JSON
// lines on stdout for a parent process (the GUI's run launcher), or nothing.
// Ctrl-C (SIGINT) or SIGTERM turns the next callback into a cancel request.
class TerminalProgress {
  public:
    enum class Mode { Auto, Bar, Json, None };
    static Mode parse_mode(const std::string& text);  // "auto", "bar", "json", "none"

    TerminalProgress(std::string label, Mode mode);
    ~TerminalProgress();

    trace::ProgressFn callback();
    void finish();  // clears the bar line / emits a final JSON line
    static bool interrupted();

  private:
    bool report(std::int64_t done, std::int64_t total);

    std::string label_;
    Mode mode_;
    std::chrono::steady_clock::time_point last_{};
    std::chrono::steady_clock::time_point started_;
    bool drew_ = false;
};

}  // namespace tokenscope::cli
