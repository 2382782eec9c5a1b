#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>

#include "trace/launch_table.h"

namespace tokenscope::store::detail {

class Connection;

// Reads one run's kernel launch facts on a thread of its own, over a second
// connection, while StoreReader::load_run reads the activities. The launch table has
// a row per kernel: on the 10 M-activity bench run its 5 million rows took as long
// to read as everything else the load does.
class LaunchRead {
  public:
    // Starts at once. `path`: the file the reader's own connection has checked.
    LaunchRead(const std::string& path, std::int64_t run_id);
    // Stops a read still under way (the load failed or was cancelled) and waits.
    ~LaunchRead();
    LaunchRead(const LaunchRead&) = delete;
    LaunchRead& operator=(const LaunchRead&) = delete;

    // Waits for the read; rethrows what it threw (a StoreError naming the file).
    trace::LaunchTable take();

  private:
    void run(std::int64_t run_id) noexcept;

    std::unique_ptr<Connection> conn_;
    trace::LaunchTable table_;
    std::exception_ptr error_;
    std::thread thread_;
};

}  // namespace tokenscope::store::detail
