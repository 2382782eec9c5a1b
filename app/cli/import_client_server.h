#pragma once

#include "arg_parser.h"
#include "import/importer.h"
#include "terminal_progress.h"

namespace tokenscope::cli {

// `import CLIENT SERVER --join --out F`: one run of a load generator's results over an
// engine's trace (analysis::join_client_server), its clock fit printed. The options
// cmd_import offers.
void add_client_server_options(ArgParser& p);
// Runs the join when --join was given; returns false (nothing done) otherwise.
bool import_client_server(const ArgParser& p, const import::ImportOptions& options,
                          TerminalProgress::Mode progress);

}  // namespace tokenscope::cli
