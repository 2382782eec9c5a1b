#pragma once

#include <string>

#include "trace/file_error.h"

namespace tokenscope::fleet {

// A problem with one Prometheus URL or fleet input file, worded "URL: problem" so the
// CLI prints it as one line and exits with status 1 like any bad input
// ("http://127.0.0.1:9090/api/v1/query_range: HTTP 401 Unauthorized ...").
class FleetError : public trace::FileError {
  public:
    using trace::FileError::FileError;
};

}  // namespace tokenscope::fleet
