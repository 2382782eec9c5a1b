#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/activity.h"

namespace tokenscope::import {

class NsysDatabase;

// What this export contains: schema version (META_DATA_EXPORT exists from
// schema 2.x on; older exports lack it), which optional tables are present,
// and the enums the activity tables refer to, read from the file when it
// carries them (ENUM_CUDA_MEMCPY_OPER, ENUM_CUPTI_SYNC_TYPE), else nsys's
// documented values.
class NsysSchema {
  public:
    explicit NsysSchema(const NsysDatabase& db);

    // True for an SQLite file written by Nsight Systems' exporter.
    static bool is_nsys_export(const NsysDatabase& db);

    const std::string& version() const { return version_; }  // "" without META_DATA_EXPORT
    std::vector<std::string> missing_optional_tables(const NsysDatabase& db) const;

    // nullopt for a copyKind this mapping does not know.
    std::optional<trace::CopyKind> copy_kind(std::int64_t value) const;
    std::string copy_label(std::int64_t value) const;
    std::string sync_label(std::int64_t value) const;

  private:
    void load_copy_kinds(const NsysDatabase& db);
    void load_sync_types(const NsysDatabase& db);

    std::string version_;
    std::unordered_map<std::int64_t, trace::CopyKind> copy_kinds_;
    std::unordered_map<std::int64_t, std::string> copy_labels_;
    std::unordered_map<std::int64_t, std::string> sync_labels_;
};

}  // namespace tokenscope::import
