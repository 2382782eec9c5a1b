#pragma once

#include <algorithm>
#include <cstdint>

#include "sqlite_run_writer.h"
#include "trace/progress.h"

namespace tokenscope::store::detail {

// Progress of writing a run's records (StoreWriter::write_run, copy_run): reports (done,
// total) every chunk's worth of records, done never past total, and throws trace::Cancelled
// when the callback says stop.
class WriteProgress {
  public:
    WriteProgress(const trace::ProgressFn& fn, std::int64_t total) : fn_(fn), total_(total) {}
    void tick() {
        if (++done_ % static_cast<std::int64_t>(SqliteRunWriter::kChunkSize) == 0) report();
    }
    void report() const {
        if (fn_ && !fn_(std::min(done_, total_), total_)) throw trace::Cancelled();
    }

  private:
    const trace::ProgressFn& fn_;
    std::int64_t total_;
    std::int64_t done_ = 0;
};

}  // namespace tokenscope::store::detail
