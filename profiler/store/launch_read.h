#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "trace/launch_table.h"

namespace tokenscope::store::detail {

class Connection;

// Interns run_id's launch_config rows into `table` and returns each config id's index
// there; the writer numbers the ids 0, 1, ... and any other numbering makes the file
// corrupt (StoreError naming it).
std::vector<std::uint32_t> read_launch_configs(const Connection& conn, std::int64_t run_id,
                                               trace::LaunchTable& table);
// Streams the kernel_launch rows of run_id (schema 3 to 7, a file read as it is) in
// correlation order.
void read_launch_rows(const Connection& conn, std::int64_t run_id,
                      const std::function<void(const trace::KernelLaunch&)>& fn);

// Reads one run's kernel launch facts on a thread of its own, over a second
// connection, while StoreReader::load_run reads the activities: the chunks of schema 8
// and the kernel_launch rows of an older file read as it is (one row per kernel: on
// the 10 M-activity bench run its 5 million rows took as long to read as everything
// else the load does).
class LaunchRead {
  public:
    // Which of the two forms the file has (schema.h: has_launch_table, has_launch_chunks).
    struct Tables {
        bool rows = false;
        bool chunks = false;
    };
    // Starts at once. `path`: the file the reader's own connection has checked.
    LaunchRead(const std::string& path, std::int64_t run_id, Tables tables);
    // Stops a read still under way (the load failed or was cancelled) and waits.
    ~LaunchRead();
    LaunchRead(const LaunchRead&) = delete;
    LaunchRead& operator=(const LaunchRead&) = delete;

    // Waits for the read; rethrows what it threw (a StoreError naming the file).
    trace::LaunchTable take();

  private:
    void run(std::int64_t run_id) noexcept;
    void read_rows(std::int64_t run_id);
    void read_chunks(std::int64_t run_id);

    Tables tables_;
    std::unique_ptr<Connection> conn_;
    trace::LaunchTable table_;
    std::exception_ptr error_;
    std::thread thread_;
};

}  // namespace tokenscope::store::detail
