#pragma once

#include <string>
#include <vector>

#include "trace/progress.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::ui {

// Makes one run of several opened files on the load job's worker (Qt-free, like
// RunLoader): a load generator's result joined with the server's trace
// (analysis::join_client_server), or several ranks' traces merged
// (import::merge_ranks). Errors are std::runtime_error naming the file at fault;
// trace::Cancelled when `stop` asks.
class RunCombiner {
  public:
    // files[0] holds the client file's runs, files[1] the server's; the first run of
    // each is joined.
    static std::vector<trace::RunData> join(std::vector<std::vector<trace::RunData>> files,
                                            const std::vector<std::string>& paths,
                                            const trace::ProgressFn& progress,
                                            const trace::StopToken& stop);
    // Every run of every file, one rank each, in file order.
    static std::vector<trace::RunData> merge(std::vector<std::vector<trace::RunData>> files,
                                             const std::vector<std::string>& paths,
                                             const trace::StopToken& stop);
};

}  // namespace tokenscope::ui
