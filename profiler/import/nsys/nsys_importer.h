#pragma once

#include "import/importer.h"

namespace tokenscope::import {

// Nsight Systems SQLite exports (`nsys export --type sqlite`, schema 2.x/3.x,
// with or without META_DATA_EXPORT). The file is opened read-only and immutable.
class NsysImporter : public Importer {
  public:
    std::string_view format() const override { return "nsys"; }
    // An SQLite header; accepts_file() then checks for the nsys tables.
    bool accepts(std::string_view head) const override;
    bool accepts_file(const std::string& path, std::string_view head) const override;
    trace::RunData import(const std::string& path, const ImportOptions& options,
                          const trace::ProgressFn& progress) const override;
};

}  // namespace tokenscope::import
