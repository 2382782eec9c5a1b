#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "importer.h"
#include "trace/progress.h"
#include "trace/run_data.h"

namespace tokenscope::import {

// True when the head is an SQLite header stamped with Tokenscope's application_id.
bool is_tokenscope_head(std::string_view head);

// Opens any file the tools understand, chosen by content: a .tokenscope store
// (all its runs) or one foreign file through default_registry() (Importer::import_all:
// one run, or one per result of a file that holds several).
// Throws ImportError or store::StoreError naming the file and the problem;
// trace::Cancelled when progress returns false.
std::vector<trace::RunData> open_any(const std::string& path, const ImportOptions& options = {},
                                     const trace::ProgressFn& progress = {});

// Imports each input (any format open_any reads) and writes every run it holds
// into out_path, created if needed. All inputs are read first, so a bad input
// fails before anything is written. Runs are then written one at a time with
// StoreWriter::write_run, which is all-or-nothing per run: a write error
// leaves no partial run (runs already written stay complete). Progress spans
// all inputs. Returns the new run ids in input order.
std::vector<std::int64_t> import_files(const std::vector<std::string>& inputs,
                                       const std::string& out_path,
                                       const ImportOptions& options = {},
                                       const trace::ProgressFn& progress = {});

}  // namespace tokenscope::import
