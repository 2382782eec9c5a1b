#pragma once

#include "arg_parser.h"
#include "import/importer.h"
#include "terminal_progress.h"

namespace tokenscope::cli {

// `import RANK0 RANK1 ... --merge --out F`: one run from several ranks' traces
// (import::merge_ranks), its clock offsets printed. The options cmd_import offers.
void add_merge_options(ArgParser& p);
// Runs the merge when --merge was given; returns false (nothing done) otherwise.
bool import_merged(const ArgParser& p, const import::ImportOptions& options,
                   TerminalProgress::Mode progress);

}  // namespace tokenscope::cli
