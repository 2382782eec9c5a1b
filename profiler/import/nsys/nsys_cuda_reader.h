#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "trace/run_data.h"

struct sqlite3_stmt;

namespace tokenscope::import {

class NsysDatabase;
class NsysLaneMap;
class NsysProgress;
class NsysSchema;
class NsysStrings;

// Reads the CUPTI activity tables: runtime API calls, kernels, copies,
// memsets and synchronization. Correlation ids link each kernel or copy to
// the API call that launched it; they are unique per process only, so a
// multi-process export gets fresh run-wide ids.
class NsysCudaReader {
  public:
    NsysCudaReader(const NsysDatabase& db, const NsysSchema& schema, NsysStrings& strings,
                   NsysLaneMap& lanes, NsysProgress& progress, trace::RunData& run);

    void read_all();

  private:
    void read_runtime();
    void read_kernels();
    void read_memcpys();
    void read_memsets();
    void read_syncs();
    void read_graph_launches();
    // Records the graph node of `a` from the row's graphNodeId, graphId columns at
    // `first`; false when the row ran outside a graph.
    bool graph_node(sqlite3_stmt* s, int first, const trace::Activity& a);
    std::uint32_t correlation(std::int64_t global_id, std::int64_t correlation_id);
    // Kernels, copies and memsets share their first six columns: start, end, deviceId,
    // streamId, correlationId, globalPid; these place the activity on its stream's lane.
    std::string stream_columns(const char* table) const;
    trace::Activity stream_activity(sqlite3_stmt* s);
    void push(const trace::Activity& a) { run_.activities.push_back(a); }

    const NsysDatabase& db_;
    const NsysSchema& schema_;
    NsysStrings& strings_;
    NsysLaneMap& lanes_;
    NsysProgress& progress_;
    trace::RunData& run_;
    bool multi_process_ = false;
    std::unordered_map<std::uint64_t, std::uint32_t> remap_;     // (pid, correlation) -> run id
    std::unordered_map<std::uint32_t, std::uint16_t> api_lane_;  // for synchronization records
    std::unordered_map<std::uint32_t, std::uint32_t> graph_of_launch_;  // correlation -> graphId
    std::int64_t graph_activities_ = 0;
};

}  // namespace tokenscope::import
