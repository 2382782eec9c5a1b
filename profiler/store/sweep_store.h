#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trace/request.h"

namespace tokenscope::store {

namespace detail {
class Connection;
}

// A sweep of a .tokenscope file (docs/sweeps.md): its grid and options as JSON.
struct SweepInfo {
    std::int64_t id = 0;
    std::string name;
    std::int64_t created_ns = 0;
    std::string spec_json;
};

// One counted run of one grid point. Warm-up runs are never stored.
struct SweepPoint {
    std::int32_t point = 0;   // index of the point in the grid
    std::int32_t repeat = 0;  // 0..R-1
    std::int64_t run_id = 0;
    std::string params_json;  // the point's parameters
};

// The sweep and sweep_point tables of one file. Writable: opens (or creates, or
// migrates) the file like StoreWriter; read-only: a file without the tables (an
// older version read as it is) simply has no sweeps.
class SweepStore {
  public:
    SweepStore(const std::string& path, bool read_only);
    ~SweepStore();
    SweepStore(const SweepStore&) = delete;
    SweepStore& operator=(const SweepStore&) = delete;

    std::int64_t add_sweep(const SweepInfo& info);
    // Records a finished run as point/repeat of the sweep; a repeated key is an error.
    void add_point(std::int64_t sweep_id, const SweepPoint& point);

    std::vector<SweepInfo> sweeps() const;
    // Points whose run is in the file and complete, in (point, repeat) order.
    std::vector<SweepPoint> points(std::int64_t sweep_id) const;

    // What sweep-report needs of a run without loading its activities and steps.
    std::vector<trace::Request> requests(std::int64_t run_id) const;
    std::string workload_json(std::int64_t run_id) const;

  private:
    std::unique_ptr<detail::Connection> conn_;
    bool read_only_ = false;
    bool has_tables_ = false;
};

}  // namespace tokenscope::store
