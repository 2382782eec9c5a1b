#pragma once

#include "trace/file_error.h"

namespace tokenscope::store {

// A missing, truncated, corrupt, foreign or too-new .tokenscope file.
class StoreError : public trace::FileError {
public:
    using trace::FileError::FileError;
};

}  // namespace tokenscope::store
