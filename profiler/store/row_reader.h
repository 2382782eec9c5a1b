#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "statement.h"
#include "trace/counter_sample.h"
#include "trace/diagnostic.h"
#include "trace/kernel_launch.h"
#include "trace/lane.h"
#include "trace/request.h"
#include "trace/run_info.h"
#include "trace/step.h"

namespace tokenscope::store::detail {

class Connection;

// Turns result rows back into model types; enum columns hold text names, and a
// name this build does not know is reported as a corrupt value, naming the column.
class RowReader {
  public:
    explicit RowReader(const Connection& conn) : conn_(conn) {}

    // Reads kRunColumns starting at column `first`.
    trace::RunInfo run_info(const Statement& st, int first) const;
    // Columns: kind, device, process, native_id, name.
    trace::Lane lane(const Statement& st) const;
    // Columns: step_columns() (counts outside -1..INT32_MAX read as unknown).
    trace::Step step(const Statement& st) const;
    // The step columns to select: a version 4 file read without migrating has no
    // batch columns, so -1 (unknown) stands in for them.
    static std::string step_columns(const Connection& conn);
    // Columns: id, arrival_ns, first_token_ns, done_ns, input_len, output_len, failed.
    static trace::Request request(const Statement& st);
    // Columns: lane, time_ns, value.
    static trace::CounterSample counter(const Statement& st);
    // Columns: name, severity, value, text.
    trace::Diagnostic diagnostic(const Statement& st) const;
    // Columns: correlation, grid_x, grid_y, grid_z, block_x, block_y, block_z,
    // shared_bytes, registers. Values outside their field's range are corrupt.
    trace::KernelLaunch launch(const Statement& st) const;
    // Columns: id (read into correlation), then launch()'s grid to registers.
    trace::KernelLaunch launch_config(const Statement& st) const;

  private:
    trace::KernelLaunch launch_columns(const Statement& st, const char* table,
                                       const char* key) const;
    template <typename E>
    E parse(std::optional<E> value, std::string_view text, const char* column) const;

    const Connection& conn_;
};

}  // namespace tokenscope::store::detail
