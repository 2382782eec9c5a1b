#pragma once

#include <string>

namespace tokenscope::store::detail {

// Looks at the raw bytes before SQLite does, so a missing, empty, truncated or
// non-SQLite file gets a specific message instead of SQLite's generic one.
// `allow_missing` lets a writer create a new file.
void probe_file(const std::string& path, bool allow_missing);

}  // namespace tokenscope::store::detail
