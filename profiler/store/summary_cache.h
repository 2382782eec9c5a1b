#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trace/progress.h"

namespace tokenscope::store::detail {

class Connection;

// Summaries of a file that cannot take them (DESIGN.md section 17: read-only media, a file
// opened without migrating) live in a cache beside the user's data, never in the file:
// $XDG_CACHE_HOME/tokenscope/summaries (else ~/.cache/...), one SQLite file per source
// file as it is now, named by a hash of its canonical path, size and modification time.
// It holds the summary tables, a run table with `summarized`, and the source's identity.
std::string summary_cache_path(const std::string& source_path);

// Builds the summaries and histograms of `runs` of the file `source` reads into a new
// cache at cache_path (written as a sibling, then renamed into place). Progress counts
// activities; trace::Cancelled leaves no cache.
void build_summary_cache(const Connection& source, const std::string& source_path,
                         const std::vector<std::int64_t>& runs, const std::string& cache_path,
                         const trace::ProgressFn& progress);

// The cache at cache_path, opened read-only, when it is one for source_path as that file
// is now; nullptr when there is none or it does not fit (stale, foreign, corrupt).
std::unique_ptr<Connection> open_summary_cache(const std::string& source_path,
                                               const std::string& cache_path);

}  // namespace tokenscope::store::detail
