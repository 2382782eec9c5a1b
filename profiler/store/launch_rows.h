#pragma once

namespace tokenscope::store::detail {

class Connection;

// The 7 -> 8 migration's data step: every run's kernel_launch rows become
// launch_config rows and launch_chunk blobs, in correlation order, and the rows
// are deleted. Runs inside the caller's write transaction. A row out of range
// throws StoreError naming its column, and the migration rolls back: the file is
// then read as it is, where the same row is reported again.
void move_launch_rows_to_chunks(const Connection& conn);

}  // namespace tokenscope::store::detail
