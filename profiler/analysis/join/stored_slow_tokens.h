#pragma once

#include <vector>

#include "slow_tokens.h"
#include "trace/run_data.h"
#include "trace/stop_token.h"

namespace tokenscope::store {
class StoreReader;
}

namespace tokenscope::analysis {

// slowest_tokens for a run whose activities stayed in its .tokenscope file
// (trace::RunData::in_file, DESIGN.md section 17): the tokens are chosen from the steps
// alone, then only the activities overlapping their windows are read (per lane, through
// StoreReader::for_each_activity), so the cost is that of N windows whatever the run's
// size. Attribution is local to a window (every activity overlapping it is read) and the
// driving lane is the whole run's (from the stored totals), so the result is what
// slowest_tokens gives on the run read whole. Throws trace::Cancelled on `stop`,
// StoreError for a damaged file.
std::vector<SlowToken> stored_slowest_tokens(const store::StoreReader& reader,
                                             const trace::RunData& run,
                                             const SlowTokenOptions& options = {},
                                             const trace::StopToken& stop = {});

// explain_tokens for such a run (the GUI's click on one token): the chosen tokens'
// windows come from the steps, and only the activities overlapping them are read, so
// each token's attribution and kernels are what explain_tokens gives on the run read whole.
std::vector<SlowToken> stored_explain_tokens(const store::StoreReader& reader,
                                             const trace::RunData& run,
                                             const std::vector<std::size_t>& steps,
                                             const std::vector<std::int64_t>& itl,
                                             const std::vector<std::int32_t>& links,
                                             const SlowTokenOptions& options = {},
                                             const trace::StopToken& stop = {});

}  // namespace tokenscope::analysis
