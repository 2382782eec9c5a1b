#pragma once

#include "trace/file_error.h"

namespace tokenscope::import {

// A foreign trace that cannot be read: "trace.json.gz: truncated gzip stream".
class ImportError : public trace::FileError {
  public:
    using trace::FileError::FileError;
};

}  // namespace tokenscope::import
