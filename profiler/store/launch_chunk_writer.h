#pragma once

#include <cstdint>
#include <vector>

#include "launch_codec.h"
#include "trace/kernel_launch.h"
#include "trace/launch_table.h"

namespace tokenscope::store::detail {

class RowInserter;

// Writes one run's launches as launch_config rows and launch_chunk blobs: a new
// configuration gets its row at once, launches wait in a chunk of up to
// kLaunchChunkSize. The capture's writer and the 7 -> 8 migration share it.
class LaunchChunkWriter {
  public:
    explicit LaunchChunkWriter(RowInserter& rows) : rows_(rows) {}

    // A launch without a correlation is dropped: no kernel could find it.
    void add(const trace::KernelLaunch& launch);
    // Writes the launches still waiting (before a commit, and at the end).
    void flush();

  private:
    RowInserter& rows_;
    trace::LaunchTable configs_;  // interns configurations; holds no launches
    std::vector<LaunchRef> pending_;
    std::vector<std::uint8_t> blob_;
};

}  // namespace tokenscope::store::detail
