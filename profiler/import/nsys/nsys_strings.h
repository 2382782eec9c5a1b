#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/string_table.h"

namespace tokenscope::import {

class NsysDatabase;

// Nsight Systems demangles an anonymous namespace as "<unnamed>", CUPTI, Kineto and
// c++filt as "(anonymous namespace)": the export's names take the latter spelling, so
// the same kernel traced by nsys and by CUPTI has one name (a diff of the two matched
// none of them on an H200). Only whole scopes ("a::<unnamed>::b") change.
std::string anonymous_namespace_spelling(std::string name);

// Maps the export's StringIds to the run's StringTable lazily: a file holds
// thousands of symbol names (callchains) that no activity refers to.
class NsysStrings {
  public:
    NsysStrings(const NsysDatabase& db, trace::StringTable& table);

    // The run's id for StringIds entry `nsys_id`; "<unknown string N>" if absent.
    std::uint32_t intern(std::int64_t nsys_id);
    // Same, with CUDA API version suffixes stripped ("cudaLaunchKernel_v7000"
    // becomes "cudaLaunchKernel"), so names match other formats' spelling.
    std::uint32_t intern_api(std::int64_t nsys_id);
    const std::string& text(std::int64_t nsys_id) const;

  private:
    std::vector<std::string> text_;
    std::vector<std::uint32_t> ids_;
    std::vector<std::uint32_t> api_ids_;
    trace::StringTable& table_;
    std::string missing_;
};

}  // namespace tokenscope::import
