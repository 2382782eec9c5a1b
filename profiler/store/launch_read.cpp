#include "launch_read.h"

#include <sqlite3.h>

#include "connection.h"
#include "row_reader.h"
#include "statement.h"

namespace tokenscope::store::detail {

LaunchRead::LaunchRead(const std::string& path, std::int64_t run_id)
    : conn_(std::make_unique<Connection>(path, Connection::AlreadyChecked{})) {
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
        RowReader rows(*conn_);
        Statement st(*conn_,
                     "SELECT correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
                     "shared_bytes, registers FROM kernel_launch WHERE run_id = ?1 "
                     "ORDER BY correlation");
        st.bind_int(1, run_id);
        while (st.step()) table_.add(rows.launch(st));
        table_.finish();  // already in order: only releases the interning map
    } catch (...) {
        error_ = std::current_exception();
    }
}

}  // namespace tokenscope::store::detail
