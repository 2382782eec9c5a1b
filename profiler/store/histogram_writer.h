#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "duration_histogram.h"
#include "statement.h"
#include "trace/activity.h"

namespace tokenscope::store::detail {

class Connection;

// Writes a run's duration histograms (duration_histogram rows, DESIGN.md section 17) as
// its activity chunks are written: per lane and name, one DurationHistogram of the
// activities starting in each block of 2^kBlockLog2 ns. Only each (lane, name)'s newest
// block is held in memory; an activity arriving for an older block, already written, gets
// a row of its own, which readers merge like any other (histograms add).
class HistogramWriter {
  public:
    static constexpr int kBlockLog2 = 32;  // 4.3 s

    HistogramWriter(const Connection& conn, std::int64_t run_id);

    void add(std::uint16_t lane, std::span<const trace::Activity> activities);
    // Writes every histogram held.
    void finish();

  private:
    struct Open {
        std::int64_t block = 0;
        DurationHistogram histogram;
    };
    void write(std::uint16_t lane, std::uint32_t name, std::int64_t block,
               const DurationHistogram& h);

    std::int64_t run_id_;
    Statement insert_;
    std::vector<std::unordered_map<std::uint32_t, Open>> lanes_;
    std::vector<std::uint8_t> blob_;
};

}  // namespace tokenscope::store::detail
