#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace tokenscope::import::kineto {

// pid and tid are numbers in Kineto's own events but strings in its synthetic
// ones ("pid": "Spans", "tid": "PyTorch Profiler").
struct JsonId {
    bool is_number = true;
    std::int64_t number = 0;
    std::string_view text;
};

// The fields of one trace event the importer uses. Views point into the
// parser's buffer and are valid only until the next event is parsed.
struct KinetoEvent {
    char ph = 0;
    std::string_view cat;
    std::string_view name;
    JsonId pid;
    JsonId tid;
    std::optional<std::int64_t> ts_ns;
    std::optional<std::int64_t> dur_ns;
    bool bad_time = false;           // ts or dur present but not a usable number
    std::optional<std::int64_t> id;  // flow id
    std::string_view scope;          // "s" of instant events
    std::string_view binding;        // "bp" of flow events

    // args
    std::optional<std::int64_t> correlation;
    std::optional<std::int64_t> external_id;
    std::optional<std::int64_t> bytes;
    std::optional<std::int64_t> device;
    std::optional<std::int64_t> stream;
    std::array<std::int32_t, 3> grid{};
    std::array<std::int32_t, 3> block{};
    std::int32_t registers = 0;
    std::int32_t shared_memory = 0;
    bool has_launch = false;
    // "graph id", "graph node id" (Kineto from 2026, CUDA 12+); 0 outside a graph.
    std::optional<std::int64_t> graph_id;
    std::optional<std::int64_t> graph_node_id;
    std::string_view arg_name;  // args.name of metadata events
    std::optional<std::int64_t> sort_index;
    // Numeric args by (key, number text): the values of counter ("C") events.
    std::vector<std::pair<std::string_view, std::string_view>> numeric_args;

    void clear();
};

}  // namespace tokenscope::import::kineto
