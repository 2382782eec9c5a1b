#include "launch_rows.h"

#include <cstdint>
#include <vector>

#include "connection.h"
#include "launch_chunk_writer.h"
#include "row_inserter.h"
#include "row_reader.h"
#include "statement.h"

namespace tokenscope::store::detail {

void move_launch_rows_to_chunks(const Connection& conn) {
    std::vector<std::int64_t> runs;
    {
        Statement st(conn, "SELECT DISTINCT run_id FROM kernel_launch ORDER BY run_id");
        while (st.step()) runs.push_back(st.int64(0));
    }
    const RowReader reader(conn);
    for (const std::int64_t run_id : runs) {
        RowInserter inserter(conn, run_id);
        LaunchChunkWriter chunks(inserter);
        Statement st(conn,
                     "SELECT correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
                     "shared_bytes, registers FROM kernel_launch WHERE run_id = ?1 "
                     "ORDER BY correlation");
        st.bind_int(1, run_id);
        while (st.step()) chunks.add(reader.launch(st));
        chunks.flush();
    }
    conn.exec("DELETE FROM kernel_launch");
}

}  // namespace tokenscope::store::detail
