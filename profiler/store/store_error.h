#pragma once

#include "trace/file_error.h"

namespace tokenscope::store {

// A missing, truncated, corrupt, foreign or too-new .tokenscope file.
class StoreError : public trace::FileError {
  public:
    using trace::FileError::FileError;
};

// A readable SQLite database that is not a Tokenscope file (another tool's
// database, or an empty one): an opener may hand it to another importer.
class ForeignFileError : public StoreError {
  public:
    using StoreError::StoreError;
};

}  // namespace tokenscope::store
