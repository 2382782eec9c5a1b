#pragma once

#include "trace/file_error.h"

// The folder is profiler/export, but `export` is a C++ keyword: its namespace is
// tokenscope::exporter.
namespace tokenscope::exporter {

// An output file that cannot be written: "out.json: write error (disk full?)".
class ExportError : public trace::FileError {
  public:
    using trace::FileError::FileError;
};

}  // namespace tokenscope::exporter
