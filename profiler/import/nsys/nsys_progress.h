#pragma once

#include <cstdint>

#include "trace/progress.h"

namespace tokenscope::import {

// Reports import progress in table rows and turns a cancel into trace::Cancelled.
class NsysProgress {
  public:
    NsysProgress(const trace::ProgressFn& fn, std::int64_t total_rows)
        : fn_(fn), total_(total_rows) {}

    // Called once per row; the callback runs every kEvery rows to stay off the hot path.
    void row() {
        if (++done_ - last_ >= kEvery) report();
    }
    void report() {
        last_ = done_;
        if (fn_ && !fn_(done_, total_)) throw trace::Cancelled();
    }
    std::int64_t done() const { return done_; }

  private:
    static constexpr std::int64_t kEvery = 16384;
    const trace::ProgressFn& fn_;
    std::int64_t total_ = 0;
    std::int64_t done_ = 0;
    std::int64_t last_ = 0;
};

}  // namespace tokenscope::import
