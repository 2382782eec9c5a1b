#include "launch_read.h"

#include <sqlite3.h>

#include <string>
#include <vector>

#include "connection.h"
#include "launch_codec.h"
#include "row_reader.h"
#include "statement.h"
#include "store_error.h"
#include "store_reader.h"

namespace tokenscope::store::detail {

std::vector<std::uint32_t> read_launch_configs(const Connection& conn, std::int64_t run_id,
                                               trace::LaunchTable& table) {
    std::vector<std::uint32_t> configs;
    RowReader rows(conn);
    Statement st(conn,
                 "SELECT id, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
                 "shared_bytes, registers FROM launch_config WHERE run_id = ?1 ORDER BY id");
    st.bind_int(1, run_id);
    while (st.step()) {
        const trace::KernelLaunch config = rows.launch_config(st);
        if (config.correlation != configs.size())
            throw StoreError(conn.path(), "corrupt file: the launch_config ids of run " +
                                              std::to_string(run_id) +
                                              " are not 0, 1, 2, ... (id " +
                                              std::to_string(config.correlation) + " at position " +
                                              std::to_string(configs.size()) + ")");
        configs.push_back(table.add_config(config));
    }
    return configs;
}

void read_launch_rows(const Connection& conn, std::int64_t run_id,
                      const std::function<void(const trace::KernelLaunch&)>& fn) {
    RowReader rows(conn);
    Statement st(conn,
                 "SELECT correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
                 "shared_bytes, registers FROM kernel_launch WHERE run_id = ?1 "
                 "ORDER BY correlation");
    st.bind_int(1, run_id);
    while (st.step()) fn(rows.launch(st));
}

LaunchRead::LaunchRead(const std::string& path, std::int64_t run_id, Tables tables)
    : tables_(tables), conn_(std::make_unique<Connection>(path, Connection::AlreadyChecked{})) {
    conn_->exec("PRAGMA mmap_size = 17179869184");
    thread_ = std::thread([this, run_id] { run(run_id); });
}

LaunchRead::~LaunchRead() {
    if (!thread_.joinable()) return;
    // The statement fails with SQLITE_INTERRUPT at its next step; run() keeps the error.
    sqlite3_interrupt(conn_->get());
    thread_.join();
}

trace::LaunchTable LaunchRead::take() {
    thread_.join();
    if (error_) std::rethrow_exception(error_);
    return std::move(table_);
}

void LaunchRead::run(std::int64_t run_id) noexcept {
    try {
        if (tables_.rows) read_rows(run_id);
        if (tables_.chunks) read_chunks(run_id);
        table_.finish();  // drops repeated correlations, keeping the first written
    } catch (...) {
        error_ = std::current_exception();
    }
}

void LaunchRead::read_rows(std::int64_t run_id) {
    read_launch_rows(*conn_, run_id, [this](const trace::KernelLaunch& l) { table_.add(l); });
}

void LaunchRead::read_chunks(std::int64_t run_id) {
    const std::vector<std::uint32_t> configs = read_launch_configs(*conn_, run_id, table_);
    {
        // Bounded by what the blobs can hold: a hostile count reserves nothing.
        Statement st(*conn_,
                     "SELECT coalesce(sum(max(0, min(count, length(data) / 8))), 0) FROM "
                     "launch_chunk WHERE run_id = ?1");
        st.bind_int(1, run_id);
        if (st.step()) table_.reserve(table_.size() + static_cast<std::size_t>(st.int64(0)));
    }
    Statement st(*conn_, "SELECT id, count, data FROM launch_chunk WHERE run_id = ?1 ORDER BY id");
    st.bind_int(1, run_id);
    while (st.step())
        decode_launches(st.blob(2), st.int64(1), configs, table_, conn_->path(), st.int64(0));
}

}  // namespace tokenscope::store::detail

namespace tokenscope::store {

void StoreReader::for_each_launch(std::int64_t run_id,
                                  const std::function<void(const trace::KernelLaunch&)>& fn) const {
    if (has_launch_rows_) {
        check_table("kernel_launch");
        detail::read_launch_rows(*conn_, run_id, fn);
    }
    if (!has_launch_chunks_) return;
    check_table("launch_config");
    check_table("launch_chunk");
    trace::LaunchTable table;
    const std::vector<std::uint32_t> configs = detail::read_launch_configs(*conn_, run_id, table);
    detail::Statement st(*conn_,
                         "SELECT id, count, data FROM launch_chunk WHERE run_id = ?1 ORDER BY id");
    st.bind_int(1, run_id);
    while (st.step()) {
        table.clear_launches();
        detail::decode_launches(st.blob(2), st.int64(1), configs, table, path_, st.int64(0));
        for (std::size_t i = 0; i < table.size(); ++i) fn(table.at(i));
    }
}

}  // namespace tokenscope::store
