#pragma once

#include <exception>

#include "store/run_writer.h"

namespace tokenscope::capture {

// What a backend does with its run when the capture fails (one rule for every
// backend). A write error (a full disk, an I/O error) keeps every batch
// committed before it, as a kill would: the file opens as an incomplete run
// with a data_loss diagnostic. Anything else (a bad configuration, Ctrl-C, a
// driver error) leaves no half run. Never throws: the caller rethrows `error`.
void end_failed_run(store::RunWriter& writer, const std::exception_ptr& error) noexcept;

}  // namespace tokenscope::capture
