#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "activity.h"

namespace tokenscope::trace {

// Where in a CUDA graph a kernel ran: CUDA's graph id and the graph node id (CUPTI's
// graphId, graphNodeId). node_id 0 marks an activity that stands for a whole graph
// launch (an nsys export traced with --cuda-graph-trace=graph).
struct GraphNode {
    std::uint32_t graph_id = 0;
    std::uint64_t node_id = 0;

    bool whole_graph() const { return node_id == 0; }
    bool operator==(const GraphNode&) const = default;
};

// One activity's graph node, with the keys that find it.
struct GraphActivity {
    std::uint16_t lane = 0;
    std::int64_t start_ns = 0;
    GraphNode node;

    bool operator==(const GraphActivity&) const = default;
};

// The graph nodes of a run's GPU activities. Activity cannot hold them (it stays 40
// bytes), and the launch table is keyed by correlation id, which every kernel of one
// cudaGraphLaunch shares. So an activity is found by its lane and start time: two
// activities of one stream never start at the same nanosecond, and the key survives
// the store, which reorders activities. A replayed graph repeats its few nodes, so
// each node is held once and an activity costs 16 bytes.
//
// Build with add(), then finish(), which sorts for find()'s binary search.
class GraphTable {
  public:
    GraphTable() = default;

    void add(std::uint16_t lane, std::int64_t start_ns, const GraphNode& node);
    void add(const GraphActivity& a) { add(a.lane, a.start_ns, a.node); }
    // Sorts by (lane, start), keeping the first added of a repeated key; returns how
    // many were dropped, for the caller to count as a diagnostic. Idempotent.
    std::size_t finish();
    void clear();

    // The node of this activity (by its lane and start); nullopt when it ran outside
    // a graph. Before finish() it scans: right, only slow.
    std::optional<GraphNode> find(const Activity& a) const { return find(a.lane, a.start_ns); }
    std::optional<GraphNode> find(std::uint16_t lane, std::int64_t start_ns) const;
    GraphActivity at(std::size_t i) const;

    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    std::size_t node_count() const { return nodes_.size(); }
    std::size_t memory_bytes() const;

    bool operator==(const GraphTable& other) const;

  private:
    struct Entry {
        std::int64_t start_ns;
        std::uint32_t node;
        std::uint16_t lane;
    };
    struct NodeHash {
        std::size_t operator()(const GraphNode& n) const {
            return std::hash<std::uint64_t>()(n.node_id * 0x9E3779B97F4A7C15ULL ^ n.graph_id);
        }
    };

    std::vector<Entry> entries_;
    std::vector<GraphNode> nodes_;
    std::unordered_map<GraphNode, std::uint32_t, NodeHash> index_;  // empty once finished
    bool finished_ = true;
};
static_assert(sizeof(GraphNode) == 16);

}  // namespace tokenscope::trace
