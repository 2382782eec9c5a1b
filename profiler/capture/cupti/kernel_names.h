#pragma once

#include <cstdint>
#include <unordered_map>

#include "store/run_writer.h"

namespace tokenscope::capture::cupti {

// Interned, demangled kernel names. CUPTI shares one name pointer among all records
// of a kernel, so the cache is keyed by the pointer: one demangle per kernel, then a
// hash lookup per record. (A module unloaded and another loaded at the same address
// could reuse a pointer; decode workloads keep their modules for the whole run.)
class KernelNames {
  public:
    explicit KernelNames(store::RunWriter& writer) : writer_(writer) {}

    std::uint32_t name(const char* mangled) {
        if (mangled == last_ptr_) return last_id_;
        auto it = ids_.find(mangled);
        if (it == ids_.end()) it = ids_.emplace(mangled, intern(mangled)).first;
        last_ptr_ = mangled;
        last_id_ = it->second;
        return last_id_;
    }

  private:
    std::uint32_t intern(const char* mangled);

    store::RunWriter& writer_;
    std::unordered_map<const char*, std::uint32_t> ids_;
    const char* last_ptr_ = nullptr;
    std::uint32_t last_id_ = 0;
};

}  // namespace tokenscope::capture::cupti
