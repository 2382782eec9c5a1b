#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "importer.h"

namespace tokenscope::import {

// Holds the importers and picks one by a file's content, never its extension.
class ImporterRegistry {
  public:
    // Bytes of the (decompressed) file start that accepts() sees.
    static constexpr std::size_t kHeadBytes = 64 * 1024;

    void register_importer(std::unique_ptr<Importer> importer);
    // The importer with that format() name, or nullptr.
    const Importer* find(std::string_view format) const;
    // The first importer accepting this head (and file); nullptr when none does.
    const Importer* pick(const std::string& path, std::string_view head) const;
    // Reads the head of the file and picks; throws ImportError naming the file
    // ("not a recognised trace format (...)") when no importer accepts it.
    const Importer& pick(const std::string& path) const;
    // Picks and imports in one go.
    trace::RunData import(const std::string& path, const ImportOptions& options,
                          const trace::ProgressFn& progress = {}) const;
    std::vector<std::string_view> formats() const;

  private:
    std::vector<std::unique_ptr<Importer>> importers_;
};

// The process-wide registry holding every importer built into this binary
// (Nsight Systems, and Kineto, client benchmark and serving-benchmark JSON when present).
ImporterRegistry& default_registry();

}  // namespace tokenscope::import
