#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "activity_codec.h"
#include "statement.h"
#include "trace/counter_sample.h"
#include "trace/diagnostic.h"
#include "trace/graph_table.h"
#include "trace/kernel_launch.h"
#include "trace/lane.h"
#include "trace/request.h"
#include "trace/run_info.h"
#include "trace/step.h"

namespace tokenscope::store::detail {

class Connection;

// The prepared INSERTs of one run; statements are compiled once and reused per row.
class RowInserter {
  public:
    RowInserter(const Connection& conn, std::int64_t run_id);

    // Inserts the run row (complete = 0) and returns its id.
    static std::int64_t insert_run(const Connection& conn, const trace::RunInfo& info);
    static void delete_run(const Connection& conn, std::int64_t run_id);
    void update_run(const trace::RunInfo& info);
    void mark_complete();

    void lane(std::uint16_t idx, const trace::Lane& lane);
    void string(std::uint32_t id, std::string_view text);
    void chunk(std::uint16_t lane, const ChunkBounds& bounds, std::int64_t count,
               std::span<const std::uint8_t> data);
    void step(const trace::Step& step);
    void request(const trace::Request& request);
    void counter(const trace::CounterSample& sample);
    void diagnostic(const trace::Diagnostic& diagnostic);
    // Configuration `id` of the run's launches (its correlation is not stored).
    void launch_config(std::uint32_t id, const trace::KernelLaunch& config);
    // A chunk of `count` launches, launch_codec.h's encoding.
    void launch_chunk(std::int64_t count, std::span<const std::uint8_t> data);
    // A repeated (lane, start) keeps its first node, as GraphTable::finish does.
    void graph(const trace::GraphActivity& graph);

  private:
    const Connection& conn_;
    std::int64_t run_id_;
    Statement lane_, string_, chunk_, step_, request_, counter_, diagnostic_, launch_config_,
        launch_chunk_, graph_;
};

}  // namespace tokenscope::store::detail
