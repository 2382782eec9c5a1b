#include "row_inserter.h"

#include <string>

#include "connection.h"
#include "schema.h"

namespace tokenscope::store::detail {
namespace {

void bind_run_info(Statement& st, const trace::RunInfo& info) {
    const trace::GpuInfo& g = info.gpu;
    st.bind_text(1, info.name).bind_text(2, trace::to_string(info.source));
    st.bind_int(3, info.created_ns).bind_text(4, info.host).bind_text(5, g.name);
    st.bind_int(6, g.sm_count).bind_real(7, g.peak_bandwidth).bind_real(8, g.peak_flops);
    st.bind_int(9, g.pcie_generation).bind_int(10, g.pcie_width).bind_int(11, g.nvlink_links);
    st.bind_real(12, g.nvlink_bandwidth).bind_text(13, info.driver_version);
    st.bind_text(14, info.cuda_version).bind_text(15, info.workload_json);
    st.bind_text(16, trace::to_string(info.clock)).bind_optional(17, info.origin_utc_ns);
}

}  // namespace

RowInserter::RowInserter(const Connection& conn, std::int64_t run_id)
    : conn_(conn),
      run_id_(run_id),
      lane_(conn,
            "INSERT INTO lane (run_id, idx, kind, device, process, native_id, name, rank) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
      string_(conn, "INSERT OR REPLACE INTO string VALUES (?1, ?2, ?3)"),
      chunk_(conn, "INSERT INTO activity_chunk VALUES (NULL, ?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
      step_(conn,
            "INSERT INTO step (run_id, request, idx, phase, start_ns, end_ns, floor_ns, "
            "prefill_requests, prefill_tokens, decode_requests, decode_tokens, "
            "prefill_key_tokens, decode_key_tokens, marker_end_ns) VALUES (?1, ?2, ?3, ?4, ?5, "
            "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"),
      request_(conn, "INSERT INTO request VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
      counter_(conn, "INSERT INTO counter_sample VALUES (?1, ?2, ?3, ?4)"),
      diagnostic_(conn, "INSERT INTO diagnostic VALUES (?1, ?2, ?3, ?4, ?5)"),
      launch_config_(conn,
                     "INSERT INTO launch_config VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"),
      launch_chunk_(conn, "INSERT INTO launch_chunk VALUES (NULL, ?1, ?2, ?3)"),
      graph_(conn, "INSERT OR IGNORE INTO graph_activity VALUES (?1, ?2, ?3, ?4, ?5)") {}

std::int64_t RowInserter::insert_run(const Connection& conn, const trace::RunInfo& info) {
    std::string sql = std::string("INSERT INTO run (") + kRunColumns +
                      ", complete) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                      "?13, ?14, ?15, ?16, ?17, 0)";
    Statement st(conn, sql.c_str());
    bind_run_info(st, info);
    st.run();
    return conn.last_insert_rowid();
}

void RowInserter::delete_run(const Connection& conn, std::int64_t run_id) {
    for (const char* table :
         {"lane", "string", "activity_chunk", "step", "request", "counter_sample", "diagnostic",
          "kernel_launch", "launch_config", "launch_chunk", "graph_activity", "summary_chunk",
          "duration_histogram"}) {
        std::string sql = std::string("DELETE FROM ") + table + " WHERE run_id = ?1";
        Statement(conn, sql.c_str()).bind_int(1, run_id).run();
    }
    Statement(conn, "DELETE FROM run WHERE id = ?1").bind_int(1, run_id).run();
}

void RowInserter::update_run(const trace::RunInfo& info) {
    std::string sql = "UPDATE run SET (" + std::string(kRunColumns) +
                      ") = (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                      "?16, ?17) WHERE id = ?18";
    Statement st(conn_, sql.c_str());
    bind_run_info(st, info);
    st.bind_int(18, run_id_).run();
}

void RowInserter::mark_complete() {
    Statement(conn_, "UPDATE run SET complete = 1 WHERE id = ?1").bind_int(1, run_id_).run();
}

void RowInserter::lane(std::uint16_t idx, const trace::Lane& l) {
    lane_.bind_int(1, run_id_).bind_int(2, idx).bind_text(3, trace::to_string(l.kind));
    lane_.bind_int(4, l.device).bind_int(5, l.process).bind_int(6, l.native_id);
    lane_.bind_text(7, l.name).bind_int(8, l.rank).run();
}

void RowInserter::string(std::uint32_t id, std::string_view text) {
    string_.bind_int(1, run_id_).bind_int(2, id).bind_text(3, text).run();
}

void RowInserter::chunk(std::uint16_t lane, const ChunkBounds& b, std::int64_t count,
                        std::span<const std::uint8_t> data) {
    chunk_.bind_int(1, run_id_).bind_int(2, lane).bind_int(3, b.start_min);
    chunk_.bind_int(4, b.start_max).bind_int(5, b.end_max).bind_int(6, count);
    chunk_.bind_blob(7, data).run();
}

void RowInserter::step(const trace::Step& s) {
    step_.bind_int(1, run_id_).bind_int(2, s.request).bind_int(3, s.index);
    step_.bind_text(4, trace::to_string(s.phase)).bind_int(5, s.start_ns);
    step_.bind_int(6, s.end_ns).bind_int(7, s.floor_ns);
    step_.bind_int(8, s.batch.prefill_requests).bind_int(9, s.batch.prefill_tokens);
    step_.bind_int(10, s.batch.decode_requests).bind_int(11, s.batch.decode_tokens);
    step_.bind_int(12, s.batch.prefill_key_tokens).bind_int(13, s.batch.decode_key_tokens);
    step_.bind_int(14, s.marker_end_ns).run();
}

void RowInserter::request(const trace::Request& r) {
    request_.bind_int(1, run_id_).bind_int(2, r.id).bind_int(3, r.arrival_ns);
    request_.bind_int(4, r.first_token_ns).bind_int(5, r.done_ns).bind_int(6, r.input_len);
    request_.bind_int(7, r.output_len).bind_int(8, r.failed ? 1 : 0).run();
}

void RowInserter::counter(const trace::CounterSample& c) {
    counter_.bind_int(1, run_id_).bind_int(2, c.lane).bind_int(3, c.time_ns);
    counter_.bind_real(4, c.value).run();
}

void RowInserter::diagnostic(const trace::Diagnostic& d) {
    diagnostic_.bind_int(1, run_id_).bind_text(2, d.name);
    diagnostic_.bind_text(3, trace::to_string(d.severity)).bind_real(4, d.value);
    diagnostic_.bind_text(5, d.text).run();
}

void RowInserter::launch_config(std::uint32_t id, const trace::KernelLaunch& c) {
    launch_config_.bind_int(1, run_id_).bind_int(2, id);
    for (int i = 0; i < 3; ++i) {
        launch_config_.bind_int(3 + i, c.grid[static_cast<std::size_t>(i)]);
        launch_config_.bind_int(6 + i, c.block[static_cast<std::size_t>(i)]);
    }
    launch_config_.bind_int(9, c.shared_bytes).bind_int(10, c.registers_per_thread).run();
}

void RowInserter::launch_chunk(std::int64_t count, std::span<const std::uint8_t> data) {
    launch_chunk_.bind_int(1, run_id_).bind_int(2, count).bind_blob(3, data).run();
}

void RowInserter::graph(const trace::GraphActivity& g) {
    // Node ids are CUPTI's uint64: stored bit for bit in SQLite's int64.
    graph_.bind_int(1, run_id_).bind_int(2, g.lane).bind_int(3, g.start_ns);
    graph_.bind_int(4, g.node.graph_id)
        .bind_int(5, static_cast<std::int64_t>(g.node.node_id))
        .run();
}

}  // namespace tokenscope::store::detail
